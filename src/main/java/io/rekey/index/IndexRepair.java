package io.rekey.index;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.index.entries.IndexEntries;
import io.rekey.index.entries.IndexShape;
import io.rekey.index.entries.RowRecord;
import io.rekey.keys.KeyReject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import scala.Tuple2;
import scala.Tuple3;

/**
 * A scrutiny's repair: from the findings {@link IndexScrutinyJob} classified (kind, then index key,
 * newest cell time, detail), writes the missing and stale entries again from the source row as it
 * is now, deletes the invalid and orphan ones up to their newest cell, and writes the untracked
 * rows' records (their key in place of an index key) from the row as it is now, through each
 * executor's buffered mutator. The cells it writes carry {@code stamp} (see IndexScrutinyJob on
 * why).
 */
final class IndexRepair {
  private static final int MUTATION_BATCH = 1000;

  private IndexRepair() {}

  /**
   * Writes missing and stale entries from the source as it is now; deletes invalid and orphan
   * entries up to their newest cell.
   */
  static void apply(
      JavaPairRDD<String, Tuple3<String, Long, String>> classified,
      Configuration conf,
      IndexDefinition d,
      long stamp) {
    ShippedConfiguration shipped = new ShippedConfiguration(conf);
    classified
        .filter(t -> ScrutinyKind.REPAIRED.contains(ScrutinyKind.of(t._1())))
        .foreachPartition(
            part -> {
              Connection c = ExecutorConnections.get(shipped);
              try (BufferedMutator out = c.getBufferedMutator(d.indexTable())) {
                new Repairer(d, c, out, stamp).repair(part);
              }
            });
  }

  /** Repairs one partition's findings through a buffered mutator. */
  private static final class Repairer {
    private final IndexDefinition definition;
    private final Connection connection;
    private final BufferedMutator out;
    private final IndexEntries entries;
    private final byte[] family;
    private final long stamp;

    Repairer(IndexDefinition definition, Connection connection, BufferedMutator out, long stamp) {
      this.definition = definition;
      this.connection = connection;
      this.out = out;
      this.entries = definition.entries();
      this.family = Bytes.toBytes(definition.family());
      this.stamp = stamp;
    }

    void repair(Iterator<Tuple2<String, Tuple3<String, Long, String>>> findings)
        throws IOException {
      // Source rows whose entries are written again, with the time their cells need to be newer
      // than (a stale entry's newest cell, which is deleted first).
      Map<String, Long> rewrite = new LinkedHashMap<>();
      // Source rows whose records are written again.
      List<byte[]> records = new ArrayList<>();
      while (findings.hasNext()) {
        Tuple2<String, Tuple3<String, Long, String>> f = findings.next();
        ScrutinyKind kind = ScrutinyKind.of(f._1());
        if (kind == ScrutinyKind.UNTRACKED) {
          records.add(ScrutinyPlan.bytes(f._2()._1()));
          if (records.size() >= MUTATION_BATCH) {
            writeRecords(records);
            records.clear();
          }
          continue;
        }
        byte[] indexKey = ScrutinyPlan.bytes(f._2()._1());
        long newest = f._2()._2();
        if (kind == ScrutinyKind.MISSING || kind == ScrutinyKind.STALE) {
          byte[] sourceKey;
          try {
            sourceKey = definition.key().decode(indexKey).sourceKey();
          } catch (KeyReject e) {
            throw new IllegalStateException("an expected entry cannot be read back", e);
          }
          if (kind == ScrutinyKind.STALE) {
            // Its covered cells the source no longer has go too; the rewrite is newer.
            out.mutate(new Delete(indexKey).addFamily(family, newest));
          }
          rewrite.merge(
              ScrutinyPlan.text(sourceKey),
              kind == ScrutinyKind.STALE ? newest + 1 : Long.MIN_VALUE,
              Math::max);
          if (rewrite.size() >= MUTATION_BATCH) {
            writeEntries(rewrite);
            rewrite.clear();
          }
        } else {
          // Up to its newest cell only: what a later run writes is newer, so it stays visible.
          out.mutate(new Delete(indexKey).addFamily(family, newest));
        }
      }
      writeEntries(rewrite);
      writeRecords(records);
      out.flush();
    }

    /**
     * Each row's record as the row is now: the keys of its entries, none when it is gone or gives
     * none (an empty record, never a delete: see {@link RowRecord}).
     */
    private void writeRecords(List<byte[]> sourceKeys) throws IOException {
      if (sourceKeys.isEmpty()) {
        return;
      }
      List<Get> gets = new ArrayList<>();
      for (byte[] k : sourceKeys) {
        gets.add(entries.current(k));
      }
      try (Table source = connection.getTable(definition.source())) {
        Result[] now = source.get(gets);
        for (int i = 0; i < now.length; i++) {
          List<IndexEntries.Entry> made = List.of();
          if (now[i] != null && !now[i].isEmpty()) {
            try {
              made = entries.entries(now[i]);
            } catch (KeyReject e) {
              // No entry can be made of the row now: its record lists none.
            }
          }
          out.mutate(recordPut(sourceKeys.get(i), made));
        }
      }
    }

    private Put recordPut(byte[] sourceKey, List<IndexEntries.Entry> made) {
      List<byte[]> keys = new ArrayList<>(made.size());
      for (IndexEntries.Entry e : made) {
        keys.add(e.key());
      }
      return new Put(sourceKey)
          .addColumn(
              Bytes.toBytes(IndexShape.ROWS_FAMILY),
              RowRecord.QUALIFIER,
              stamp,
              RowRecord.encode(keys));
    }

    private void writeEntries(Map<String, Long> sourceKeys) throws IOException {
      if (sourceKeys.isEmpty()) {
        return;
      }
      List<Get> gets = new ArrayList<>();
      for (String k : sourceKeys.keySet()) {
        gets.add(entries.current(ScrutinyPlan.bytes(k)));
      }
      try (Table source = connection.getTable(definition.source())) {
        for (Result r : source.get(gets)) {
          if (r == null || r.isEmpty()) {
            continue;
          }
          long at =
              Math.max(
                  stamp, sourceKeys.getOrDefault(ScrutinyPlan.text(r.getRow()), Long.MIN_VALUE));
          try {
            for (Put p : entries.puts(r, at)) {
              out.mutate(p);
            }
          } catch (KeyReject e) {
            // A row whose entry cannot be made now has no entry to write back.
          }
        }
      }
    }
  }
}
