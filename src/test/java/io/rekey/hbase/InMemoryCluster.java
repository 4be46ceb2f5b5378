package io.rekey.hbase;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A {@link ClusterView} held in memory, for the planners' unit tests: tables with their
 * descriptors, region boundaries and cells, and the namespaces that exist. A sample is every row
 * when the table has no more than asked for, else every k-th row (deterministic, unlike the real
 * one's random filter); a scan's columns are honoured (a row with none of them is not returned),
 * its filter is not.
 */
public final class InMemoryCluster implements ClusterView {
  private final Map<TableName, TableDescriptor> descriptors = new HashMap<>();
  private final Map<TableName, List<byte[]>> splits = new HashMap<>();
  private final Map<TableName, TreeMap<byte[], List<Cell>>> rows = new HashMap<>();
  private final Set<String> namespaces = new HashSet<>(Set.of("default", "hbase"));

  /** Adds a table of the given families, split at {@code splitKeys}. */
  public InMemoryCluster table(String name, List<String> families, String... splitKeys) {
    TableName table = TableName.valueOf(name);
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(table);
    for (String f : families) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f));
    }
    return table(b.build(), splitKeys);
  }

  /** Adds a table of this descriptor, split at {@code splitKeys}. */
  public InMemoryCluster table(TableDescriptor descriptor, String... splitKeys) {
    TableName table = descriptor.getTableName();
    descriptors.put(table, descriptor);
    List<byte[]> s = new ArrayList<>();
    for (String k : splitKeys) {
      s.add(Bytes.toBytes(k));
    }
    splits.put(table, s);
    rows.put(table, new TreeMap<>(Bytes.BYTES_COMPARATOR));
    return this;
  }

  /** Writes one cell. */
  public InMemoryCluster put(String table, String row, String column, String value) {
    String[] fq = column.split(":", 2);
    rows.get(TableName.valueOf(table))
        .computeIfAbsent(Bytes.toBytes(row), r -> new ArrayList<>())
        .add(
            new KeyValue(
                Bytes.toBytes(row),
                Bytes.toBytes(fq[0]),
                Bytes.toBytes(fq[1]),
                1L,
                Bytes.toBytes(value)));
    return this;
  }

  /** Makes a namespace exist. */
  public InMemoryCluster namespace(String name) {
    namespaces.add(name);
    return this;
  }

  @Override
  public Optional<TableDescriptor> findTable(TableName table) {
    return Optional.ofNullable(descriptors.get(table));
  }

  @Override
  public boolean namespaceExists(String namespace) {
    return namespaces.contains(namespace);
  }

  @Override
  public List<byte[]> regionStartKeys(TableName table) {
    List<byte[]> starts = new ArrayList<>();
    starts.add(new byte[0]);
    starts.addAll(splits.get(table));
    starts.sort(Bytes.BYTES_COMPARATOR);
    return starts;
  }

  @Override
  public List<Result> firstRows(TableName table, int limit) {
    return read(table, new Scan(), 1).stream().limit(limit).toList();
  }

  @Override
  public List<Result> sampleRows(TableName table, Scan scan, int n) {
    int all = rows.get(table).size();
    return read(table, scan, all <= n ? 1 : (all + n - 1) / n);
  }

  private List<Result> read(TableName table, Scan scan, int everyKth) {
    List<Result> out = new ArrayList<>();
    int i = 0;
    for (List<Cell> cells : rows.get(table).values()) {
      if (i++ % everyKth != 0) {
        continue;
      }
      List<Cell> kept = new ArrayList<>();
      for (Cell c : cells) {
        if (selected(scan, c)) {
          kept.add(c);
        }
      }
      if (!kept.isEmpty()) {
        kept.sort(CellComparator.getInstance());
        out.add(Result.create(kept));
      }
    }
    return out;
  }

  private static boolean selected(Scan scan, Cell c) {
    if (!scan.hasFamilies()) {
      return true;
    }
    byte[] family = CellUtil.cloneFamily(c);
    if (!scan.getFamilyMap().containsKey(family)) {
      return false;
    }
    NavigableSet<byte[]> qualifiers = scan.getFamilyMap().get(family);
    return qualifiers == null || qualifiers.contains(CellUtil.cloneQualifier(c));
  }
}
