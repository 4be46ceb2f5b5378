package io.rekey.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** Builds tables with known cells on the mini cluster and reads every cell back. */
public final class TestTables {
  private TestTables() {}

  public static void create(TableName name, ColumnFamilyDescriptor... families) throws IOException {
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
      for (ColumnFamilyDescriptor f : families) {
        b.setColumnFamily(f);
      }
      admin.createTable(b.build());
    }
  }

  /**
   * A table of one family {@code d} (5 versions) with HBase's {@code NEW_VERSION_BEHAVIOR}, where a
   * delete marker hides only the cells written before it.
   */
  public static void createOrderDependent(TableName name) throws IOException {
    create(
        name,
        ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("d"))
            .setMaxVersions(5)
            .setNewVersionBehavior(true)
            .build());
  }

  /**
   * Writes {@code d:qualifier} of {@code row} at {@code ts} as "first", deletes that version, then
   * writes it again as "second": under {@code NEW_VERSION_BEHAVIOR} a read returns "second", and
   * one sequence id for all three (one HFile) hides it.
   */
  public static void putDeletePut(TableName name, byte[] row, String qualifier, long ts)
      throws IOException {
    byte[] d = Bytes.toBytes("d");
    byte[] q = Bytes.toBytes(qualifier);
    try (Table t = MiniHBase.util().getConnection().getTable(name)) {
      t.put(new Put(row).addColumn(d, q, ts, Bytes.toBytes("first")));
      t.delete(new Delete(row).addColumn(d, q, ts));
      t.put(new Put(row).addColumn(d, q, ts, Bytes.toBytes("second")));
    }
  }

  public static void put(TableName name, List<Put> puts) throws IOException {
    try (Table t = MiniHBase.util().getConnection().getTable(name)) {
      for (int i = 0; i < puts.size(); i += 1000) {
        t.put(puts.subList(i, Math.min(puts.size(), i + 1000)));
      }
    }
  }

  /** One line per cell, {@code row/family:qualifier/ts=value} with binary bytes escaped. */
  public static List<String> cells(TableName name) throws IOException {
    List<String> out = new ArrayList<>();
    try (Table t = MiniHBase.util().getConnection().getTable(name);
        ResultScanner s = t.getScanner(new Scan().readAllVersions().setBatch(5000))) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          out.add(line(CellUtil.cloneRow(c), c));
        }
      }
    }
    return out;
  }

  public static String line(byte[] row, Cell c) {
    return Bytes.toStringBinary(row)
        + "/"
        + Bytes.toStringBinary(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "/"
        + c.getTimestamp()
        + "="
        + (c.getValueLength() > 64
            ? "len" + c.getValueLength() + "#" + java.util.Arrays.hashCode(CellUtil.cloneValue(c))
            : Bytes.toStringBinary(CellUtil.cloneValue(c)));
  }

  public static long countCells(TableName name) throws IOException {
    return cells(name).size();
  }

  /**
   * The source's visible cells as a target must hold them: each row through {@code mapping} (its
   * bound columns read from the row), everything else the same, sorted; rows the mapping refuses
   * are left out.
   */
  public static List<String> mapped(TableName source, io.rekey.keys.KeyMapping mapping)
      throws IOException {
    List<String> out = new ArrayList<>();
    try (Table t = MiniHBase.util().getConnection().getTable(source);
        ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
      for (Result r : s) {
        byte[] row;
        try {
          row = mapping.map(r.getRow(), (f, q) -> r.getValue(Bytes.toBytes(f), Bytes.toBytes(q)));
        } catch (io.rekey.keys.KeyReject e) {
          continue;
        }
        for (Cell c : r.rawCells()) {
          out.add(line(row, c));
        }
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * Bulk loads {@code cells} (one family, in key order) into {@code table} as one real HFile, as
   * HBase's BulkLoadHFiles does for a user.
   */
  public static void bulkLoad(TableName table, List<org.apache.hadoop.hbase.KeyValue> cells)
      throws IOException {
    org.apache.hadoop.conf.Configuration conf = MiniHBase.util().getConfiguration();
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.get(conf);
    byte[] family = CellUtil.cloneFamily(cells.get(0));
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path(
            "/tmp/bulk-" + System.nanoTime() + "/" + Bytes.toString(family) + "/cells");
    try (org.apache.hadoop.hbase.io.hfile.HFile.Writer w =
        org.apache.hadoop.hbase.io.hfile.HFile.getWriterFactoryNoCache(conf)
            .withPath(fs, file)
            .withFileContext(new org.apache.hadoop.hbase.io.hfile.HFileContextBuilder().build())
            .create()) {
      for (Cell c : cells) {
        w.append(c);
      }
    }
    java.util.Map<byte[], List<org.apache.hadoop.fs.Path>> byFamily =
        new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    byFamily.put(family, new ArrayList<>(List.of(file)));
    org.apache.hadoop.hbase.tool.BulkLoadHFiles.create(conf).bulkLoad(table, byFamily);
  }

  /** Every cell of {@code table} as {@link #line}s, sorted. */
  public static List<String> sortedCells(TableName table) throws IOException {
    List<String> cells = cells(table);
    cells.sort(null);
    return cells;
  }
}
