package io.rekey.index;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.RunFiles;
import io.rekey.hbase.RunLock;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.hbase.SourceReader;
import io.rekey.hbase.TableAdmin;
import io.rekey.hbase.TableRead;
import io.rekey.keys.KeyReject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Compares an index with its source both ways and, when asked, repairs it. Every source row gives
 * its expected entries (the same code that builds them); every index row is read back to its source
 * row through the layout. Expected and present: valid. Expected, absent: missing (or pending, when
 * newer than the watermark). Present, not expected: invalid when the source row still exists (its
 * value changed), orphan when it does not. Repair writes the missing entries (from the source row
 * as it is now) and deletes the invalid and orphan ones up to their newest cell, under the index's
 * lock so no update runs meanwhile. This is how changes and deletions in the source reach an index
 * that incremental runs only add to.
 */
public final class IndexScrutinyJob {
  private static final String VALID = "valid";
  private static final String MISSING = "missing";
  private static final String PENDING = "pending";
  private static final String INVALID = "invalid";
  private static final String ORPHAN = "orphan";
  private static final int MUTATION_BATCH = 1000;

  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final IndexDefinition definition;
  private final boolean liveScan;
  private final String staging;

  public IndexScrutinyJob(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      IndexDefinition definition,
      boolean liveScan,
      String staging) {
    this.sc = sc;
    this.connection = connection;
    this.conf = conf;
    this.definition = definition;
    this.liveScan = liveScan;
    this.staging = staging;
  }

  /**
   * @param repair write missing entries, delete invalid and orphan ones
   * @param samples examples kept per kind
   */
  public IndexScrutinyResult execute(boolean repair, int samples, boolean breakLock) {
    long t0 = System.nanoTime();
    IndexState state = new IndexState(connection, definition.stateTable(), definition.indexTable());
    try (RunLock lock = state.lock("index scrutiny", sc.sc().applicationId(), breakLock)) {
      new TableAdmin(connection).descriptor(definition.indexTable(), "index");
      OptionalLong w = state.watermark();
      long watermark = w.isPresent() ? w.getAsLong() : Long.MAX_VALUE;
      return compare(repair, samples, w.isPresent() ? w.getAsLong() : null, watermark, t0);
    }
  }

  private IndexScrutinyResult compare(
      boolean repair, int samples, Long shownWatermark, long watermark, long t0) {
    IndexEntries entries = new IndexEntries(definition);
    IndexKey key = definition.key();
    Scan scan = entries.restrict(new Scan().setCacheBlocks(false).setCaching(500));
    TableRead read =
        TableRead.open(
            sc,
            connection,
            conf,
            definition.source(),
            scan,
            liveScan,
            RunFiles.staging(conf, staging),
            "scrutiny");
    JavaPairRDD<ImmutableBytesWritable, Result> rows = read.rows();
    sc.setJobGroup(
        "index scrutiny",
        "index scrutiny: " + definition.source() + " against " + definition.indexTable(),
        false);
    try {
      // (source key, index key or "" when the row gives no entry) with the entry's timestamp.
      JavaPairRDD<String, Tuple2<String, Long>> bySource =
          rows.flatMapToPair(
                  row -> {
                    Result r = row._2();
                    String source = text(r.getRow());
                    List<Tuple2<String, Tuple2<String, Long>>> out = new ArrayList<>(1);
                    List<IndexEntries.Entry> made;
                    try {
                      made = entries.entries(r);
                    } catch (KeyReject e) {
                      made = List.of();
                    }
                    if (made.isEmpty()) {
                      out.add(new Tuple2<>(source, new Tuple2<>("", 0L)));
                    }
                    for (IndexEntries.Entry e : made) {
                      out.add(new Tuple2<>(source, new Tuple2<>(text(e.key()), e.ts())));
                    }
                    return out.iterator();
                  })
              .persist(StorageLevel.MEMORY_AND_DISK_SER());
      JavaPairRDD<String, Long> expected =
          bySource
              .filter(t -> !t._2()._1().isEmpty())
              .mapToPair(t -> new Tuple2<>(t._2()._1(), t._2()._2()));
      // (index key, newest cell timestamp) of every entry in the index.
      JavaPairRDD<String, Long> present =
          SourceReader.live(
                  sc,
                  conf,
                  definition.indexTable(),
                  new Scan().setCacheBlocks(false).setCaching(1000))
              .mapToPair(
                  row -> {
                    long newest = Long.MIN_VALUE;
                    for (Cell c : row._2().rawCells()) {
                      newest = Math.max(newest, c.getTimestamp());
                    }
                    return new Tuple2<>(text(row._2().getRow()), newest);
                  });
      long w = watermark;
      // (kind, (index key, timestamp)) of every entry either side.
      JavaPairRDD<String, Tuple2<String, Long>> oneSide =
          expected
              .fullOuterJoin(present)
              .mapToPair(
                  j -> {
                    Optional<Long> want = j._2()._1();
                    Optional<Long> have = j._2()._2();
                    if (want.isPresent() && have.isPresent()) {
                      return new Tuple2<>(VALID, new Tuple2<>(j._1(), have.get()));
                    }
                    if (want.isPresent()) {
                      String kind = want.get() >= w ? PENDING : MISSING;
                      return new Tuple2<>(kind, new Tuple2<>(j._1(), want.get()));
                    }
                    return new Tuple2<>("unexpected", new Tuple2<>(j._1(), have.get()));
                  });
      // Unexpected entries: invalid when their source row exists, orphan when not.
      JavaPairRDD<String, Tuple2<String, Long>> unexpected =
          oneSide
              .filter(t -> t._1().equals("unexpected"))
              .mapToPair(
                  t -> {
                    String source;
                    try {
                      source = text(key.decode(bytes(t._2()._1())).sourceKey());
                    } catch (KeyReject e) {
                      source = "\u0000unreadable:" + t._2()._1();
                    }
                    return new Tuple2<>(source, t._2());
                  });
      JavaPairRDD<String, Boolean> sourceRows = bySource.mapToPair(t -> new Tuple2<>(t._1(), true));
      JavaPairRDD<String, Tuple2<String, Long>> classified =
          oneSide
              .filter(t -> !t._1().equals("unexpected"))
              .union(
                  unexpected
                      .cogroup(sourceRows)
                      .flatMapToPair(
                          g -> {
                            boolean exists = g._2()._2().iterator().hasNext();
                            List<Tuple2<String, Tuple2<String, Long>>> out = new ArrayList<>();
                            for (Tuple2<String, Long> e : g._2()._1()) {
                              out.add(new Tuple2<>(exists ? INVALID : ORPHAN, e));
                            }
                            return out.iterator();
                          }))
              .persist(StorageLevel.MEMORY_AND_DISK_SER());
      Map<String, Long> counts = new LinkedHashMap<>();
      for (String kind : List.of(VALID, MISSING, PENDING, INVALID, ORPHAN)) {
        counts.put(kind, 0L);
      }
      classified.countByKey().forEach((k, v) -> counts.put(k, v));
      long sourceRowCount = bySource.keys().distinct().count();
      Map<String, List<String>> examples = new LinkedHashMap<>();
      for (String kind : List.of(MISSING, INVALID, ORPHAN, PENDING)) {
        if (counts.get(kind) == 0 || samples == 0) {
          continue;
        }
        List<String> lines = new ArrayList<>();
        for (Tuple2<String, Tuple2<String, Long>> t :
            classified.filter(c -> c._1().equals(kind)).take(samples)) {
          lines.add(describe(kind, bytes(t._2()._1())));
        }
        examples.put(kind, lines);
      }
      long written = 0;
      long deleted = 0;
      if (repair) {
        written = counts.get(MISSING);
        deleted = counts.get(INVALID) + counts.get(ORPHAN);
        if (written + deleted > 0) {
          repair(classified);
        }
      }
      bySource.unpersist(false);
      classified.unpersist(false);
      long presentCount = counts.get(VALID) + counts.get(INVALID) + counts.get(ORPHAN);
      return new IndexScrutinyResult(
          definition.source().getNameAsString(),
          definition.indexTable().getNameAsString(),
          shownWatermark,
          sourceRowCount,
          presentCount,
          counts.get(VALID),
          counts.get(MISSING),
          counts.get(PENDING),
          counts.get(INVALID),
          counts.get(ORPHAN),
          examples,
          repair,
          written,
          deleted,
          Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
    } finally {
      sc.clearJobGroup();
      read.close();
    }
  }

  /** Writes missing entries from the source as it is now; deletes invalid and orphan entries. */
  private void repair(JavaPairRDD<String, Tuple2<String, Long>> classified) {
    ShippedConfiguration shipped = new ShippedConfiguration(conf);
    IndexDefinition d = definition;
    classified
        .filter(t -> t._1().equals(MISSING) || t._1().equals(INVALID) || t._1().equals(ORPHAN))
        .foreachPartition(
            part -> {
              Connection c = ExecutorConnections.get(shipped);
              try (BufferedMutator out = c.getBufferedMutator(d.indexTable())) {
                new Repairer(d, c, out).repair(part);
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

    Repairer(IndexDefinition definition, Connection connection, BufferedMutator out) {
      this.definition = definition;
      this.connection = connection;
      this.out = out;
      this.entries = new IndexEntries(definition);
      this.family = Bytes.toBytes(definition.family());
    }

    void repair(Iterator<Tuple2<String, Tuple2<String, Long>>> findings) throws IOException {
      List<byte[]> missingSources = new ArrayList<>();
      while (findings.hasNext()) {
        Tuple2<String, Tuple2<String, Long>> f = findings.next();
        byte[] indexKey = bytes(f._2()._1());
        if (f._1().equals(MISSING)) {
          try {
            missingSources.add(definition.key().decode(indexKey).sourceKey());
          } catch (KeyReject e) {
            throw new IllegalStateException("an expected entry cannot be read back", e);
          }
          if (missingSources.size() >= MUTATION_BATCH) {
            writeEntries(missingSources);
            missingSources.clear();
          }
        } else {
          // Up to its newest cell only: an entry written again later stays visible.
          out.mutate(new Delete(indexKey).addFamily(family, f._2()._2()));
        }
      }
      writeEntries(missingSources);
      out.flush();
    }

    private void writeEntries(List<byte[]> sourceKeys) throws IOException {
      if (sourceKeys.isEmpty()) {
        return;
      }
      List<Get> gets = new ArrayList<>();
      for (byte[] k : sourceKeys) {
        Get g = new Get(k);
        Scan columns = entries.restrict(new Scan());
        columns.getFamilyMap().forEach((f, qs) -> qs.forEach(q -> g.addColumn(f, q)));
        if (definition.allVersions()) {
          g.readAllVersions();
        }
        gets.add(g);
      }
      try (Table source = connection.getTable(definition.source())) {
        for (Result r : source.get(gets)) {
          if (r == null || r.isEmpty()) {
            continue;
          }
          try {
            // At the server's time: see IndexEntries.puts.
            for (Put p : entries.puts(r, false)) {
              out.mutate(p);
            }
          } catch (KeyReject e) {
            // A row whose entry cannot be made now has no entry to write back.
          }
        }
      }
    }
  }

  private String describe(String kind, byte[] indexKey) {
    try {
      IndexKey.Entry e = definition.key().decode(indexKey);
      return Bytes.toStringBinary(indexKey)
          + " -> "
          + Bytes.toStringBinary(e.sourceKey())
          + " ("
          + definition.valueName()
          + " '"
          + Bytes.toStringBinary(e.value())
          + "' at "
          + java.time.Instant.ofEpochMilli(e.ts())
          + ")";
    } catch (KeyReject r) {
      return Bytes.toStringBinary(indexKey) + " (not a key of this index's layout: " + r + ")";
    }
  }

  /** Bytes as a string of the same length that sorts and compares the same. */
  static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
