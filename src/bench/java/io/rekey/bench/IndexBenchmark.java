package io.rekey.bench;

import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.TableAdmin;
import io.rekey.index.IndexDefinition;
import io.rekey.index.IndexJob;
import io.rekey.index.IndexRunOptions;
import io.rekey.index.IndexRunResult;
import io.rekey.index.entries.IndexEntries;
import io.rekey.keys.KeyReject;
import io.rekey.options.OptionValues;
import io.rekey.read.TableRead;
import io.rekey.spark.JobContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The index benchmark: on one source table, in one run and one JVM, times this tool's full index
 * build (HFiles and bulk load) against a Put-based builder (Spark foreachPartition +
 * BufferedMutator) that makes the same entries from the same snapshot read into a table with the
 * same regions; then adds 1% new messages and times an incremental update against the build. Prints
 * JSON.
 *
 * <p>Run by {@code jobs/bench-index.sh}.
 */
public final class IndexBenchmark {
  static final String STATE = "bench:index_state";

  public static void main(String[] args) throws Exception {
    String source = args.length > 0 ? args[0] : "bench:messages";
    Path out = Path.of(args.length > 1 ? args[1] : "var/bench/index-bench.json");
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("index-bench");
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      TableName src = TableName.valueOf(source);
      deleteMessages(connection, src);
      report.put("source", source);
      report.put("sourceCells", RekeyBenchmark.countCells(connection, src));
      report.put("index", "m:sender -> value + reverse_ts(ts) + key, covering m:subject");
      report.put("sparkMaster", sc.master());
      OptionValues definition = definition(source, "bench:ix_build");
      // One build before the rounds, untimed, gives the index's regions: the Put builder writes
      // into a table with the same regions, created before each of its runs (not timed).
      RekeyBenchmark.fresh(connection, "bench:ix_build", null, null);
      forgetState(connection, "bench:ix_build");
      build(sc, connection, conf, definition, new LinkedHashMap<>());
      TableDescriptor built =
          connection.getAdmin().getDescriptor(TableName.valueOf("bench:ix_build"));
      List<byte[]> starts = new TableAdmin(connection).regionStartKeys(built.getTableName());
      List<byte[]> splits = new ArrayList<>(starts.subList(1, starts.size()));
      Rounds rounds =
          Rounds.fromProperties(5)
              .run(
                  "index",
                  List.of(
                      new Rounds.Method("build", r -> build(sc, connection, conf, definition, r)),
                      ReadFloor.method(sc, connection, conf, source, buildScan(definition)),
                      new Rounds.Method(
                          "putBased",
                          r ->
                              putBuild(sc, connection, conf, definition(source, "bench:ix_put"), r),
                          put ->
                              put.put(
                                  "flushSeconds",
                                  RekeyBenchmark.flushSeconds(connection, "bench:ix_put")))),
                  // Dropping the last round's tables and state is not part of any method's time.
                  () -> {
                    RekeyBenchmark.fresh(connection, "bench:ix_build", null, null);
                    forgetState(connection, "bench:ix_build");
                    RekeyBenchmark.fresh(connection, "bench:ix_put", null, null);
                    new TableAdmin(connection)
                        .create(
                            TableDescriptorBuilder.copy(TableName.valueOf("bench:ix_put"), built),
                            splits);
                  });
      report.put("rounds", rounds.describe());
      Map<String, Object> build = rounds.summary("build");
      build.put("medianStageSeconds", rounds.medianStages("build"));
      build.put("note", "a new index table, split at quantiles of sampled entry keys");
      report.put("build", build);
      report.put("floor", rounds.summary("floor"));
      Map<String, Object> put = rounds.summary("putBased");
      put.put("note", "into a table with the same regions, created beforehand (not timed)");
      report.put("putBased", put);
      report.put("buildVsPutBased", rounds.speedup("build", "putBased"));
      report.put("buildOverFloor", rounds.overFloor("build", "floor"));
      report.put(
          "buildVsPutBasedWithFlushMedianOfRounds",
          rounds.speedupWith("build", "putBased", "flushSeconds"));

      // Incremental: 1% new messages written now, then an update over [watermark, now].
      long sourceRows = rows(connection, src);
      int fresh = (int) Math.max(1, sourceRows / 100);
      long now = System.currentTimeMillis();
      appendMessages(connection, src, fresh, now);
      long until = now + fresh + 1;
      // An update's window may not end after now (minus the lag, 0 here).
      while (System.currentTimeMillis() <= until) {
        Thread.sleep(10);
      }
      // Like the builds, the update is measured warm: the same window is run again after moving
      // the watermark back, and the last run counts.
      Map<String, Object> update = null;
      List<Object> runs = new ArrayList<>();
      for (int round = 1; round <= 3; round++) {
        if (update != null) {
          forgetWatermarkTo(connection, "bench:ix_build", (long) update.get("windowFrom"));
        }
        update = update(sc, connection, conf, definition, until, "puts");
        runs.add(update.get("seconds"));
      }
      update.put("secondsOfEachRun", runs);
      update.put("newRows", fresh);
      update.put(
          "note", "cells = source rows the update read (only the window's); Puts; the last run");
      report.put("update", update);
      report.put(
          "updateOverBuild",
          RekeyBenchmark.round((double) update.get("seconds") / rounds.medianSeconds("build")));
      // The same window again, written as HFiles and bulk-loaded, for comparison.
      forgetWatermarkTo(connection, "bench:ix_build", (long) update.get("windowFrom"));
      Map<String, Object> viaHfiles = update(sc, connection, conf, definition, until, "hfiles");
      viaHfiles.put("note", "the same window written as HFiles and bulk-loaded");
      report.put("updateWithHfiles", viaHfiles);
      deleteMessages(connection, src);
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(report, out);
    sc.stop();
  }

  static Map<String, Object> update(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      OptionValues definition,
      long until,
      String write)
      throws Exception {
    long[] from = new long[1];
    Map<String, Object> m =
        RekeyBenchmark.measure(
            () -> {
              IndexRunResult r =
                  IndexJob.update(
                          new JobContext(sc, connection, conf),
                          IndexRunOptions.forUpdate(
                              definition
                                  .with("until", Long.toString(until))
                                  .with("write", write)
                                  .validate(IndexRunOptions.declaredForUpdate())))
                      .execute();
              System.err.println(
                  "bench: update (" + write + ") " + r.counts() + " " + r.stageSeconds());
              from[0] = r.windowFrom();
              return r.counts().rowsRead();
            });
    m.put("windowFrom", from[0]);
    return m;
  }

  /** Puts the watermark back, so the next update runs the same window again. */
  static void forgetWatermarkTo(Connection c, String index, long watermark) {
    new io.rekey.run.RunState(c, TableName.valueOf(STATE), TableName.valueOf(index))
        .moveWatermark(watermark);
  }

  static OptionValues definition(String source, String index) {
    return OptionValues.empty()
        .with("source", source)
        .with("column", "m:sender")
        .with("covered", "m:subject")
        .with("index-table", index)
        .with("state-table", STATE)
        .with("safety-lag", "0")
        .with("allow-short-lag", "true");
  }

  static long build(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      OptionValues definition,
      Map<String, Object> record) {
    IndexRunResult r =
        IndexJob.build(
                new JobContext(sc, connection, conf),
                IndexRunOptions.forBuild(definition.validate(IndexRunOptions.declaredForBuild())))
            .execute();
    RekeyBenchmark.recordHFileJob(
        record,
        sc,
        r.stageSeconds(),
        "snapshot; the index's columns (and every row's first cell), caching 5000");
    return r.cellsWritten();
  }

  /** The scan an index build reads its source with (IndexJob), for the floor and the peer. */
  static Scan buildScan(OptionValues definition) {
    IndexDefinition d =
        IndexDefinition.from(definition.validate(IndexDefinition.declaredWithFile()));
    return d.entries().restrictCountingEveryRow(new Scan().setCacheBlocks(false).setCaching(5000));
  }

  /**
   * What most people write first: the same snapshot read and the same entries, each row Put through
   * a BufferedMutator on the executor's connection.
   */
  static long putBuild(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      OptionValues values,
      Map<String, Object> record) {
    IndexDefinition d = IndexDefinition.from(values.validate(IndexDefinition.declaredWithFile()));
    IndexEntries entries = d.entries();
    long stamp = System.currentTimeMillis();
    Scan scan = buildScan(values);
    try (TableRead read =
        RekeyBenchmark.peerRead(sc, connection, conf, d.source(), scan, "bench-ix-put")) {
      record.put("settings", RekeyBenchmark.putSettings(read, scan));
      return RekeyBenchmark.putEachRow(
          sc,
          conf,
          read.rows(),
          d.indexTableName(),
          r -> {
            try {
              return entries.puts(r, stamp);
            } catch (KeyReject e) {
              return List.of();
            }
          });
    }
  }

  static void forgetState(Connection c, String index) throws IOException {
    TableName state = TableName.valueOf(STATE);
    try (Admin admin = c.getAdmin()) {
      if (!admin.tableExists(state)) {
        return;
      }
    }
    try (Table t = c.getTable(state)) {
      t.delete(new Delete(Bytes.toBytes(index)));
    }
  }

  static long rows(Connection c, TableName t) throws IOException {
    long n = 0;
    try (Table table = c.getTable(t);
        var s = table.getScanner(io.rekey.hbase.RowSampler.keysOnly().setCaching(10_000))) {
      while (s.next() != null) {
        n++;
      }
    }
    return n;
  }

  /** {@code n} new messages written at {@code now}, keyed {@code zz-new-N} (removed after). */
  static void appendMessages(Connection c, TableName t, int n, long now) throws IOException {
    try (BufferedMutator m = c.getBufferedMutator(t)) {
      for (int i = 0; i < n; i++) {
        long ts = now + i;
        Put p = new Put(Bytes.toBytes(String.format("%d_new_%07d", ts, i)));
        p.addColumn(
            Bytes.toBytes("m"), Bytes.toBytes("sender"), ts, Bytes.toBytes("user0000" + (i % 7)));
        p.addColumn(Bytes.toBytes("m"), Bytes.toBytes("recipient"), ts, Bytes.toBytes("user01234"));
        p.addColumn(Bytes.toBytes("m"), Bytes.toBytes("subject"), ts, Bytes.toBytes("fresh " + i));
        p.addColumn(
            Bytes.toBytes("m"), Bytes.toBytes("body"), ts, Bytes.toBytes("a new message " + i));
        p.addColumn(Bytes.toBytes("m"), Bytes.toBytes("read"), ts, Bytes.toBytes("false"));
        m.mutate(p);
      }
    }
  }

  /**
   * Removes every message an earlier run appended (keys with {@code _new_}), whatever its time: the
   * cells are stamped up to n ms ahead of the clock, so the delete names its own timestamp.
   */
  static void deleteMessages(Connection c, TableName t) throws IOException {
    Scan appended =
        new Scan()
            .setFilter(new RowFilter(CompareOperator.EQUAL, new SubstringComparator("_new_")))
            .setCaching(10_000);
    try (Table table = c.getTable(t);
        ResultScanner s = table.getScanner(appended);
        BufferedMutator m = c.getBufferedMutator(t)) {
      for (Result r : s) {
        // At the row's newest cell, not later: a marker's timestamp widens its file's time range,
        // and every later update would have to read that file.
        long newest = 0;
        for (var cell : r.rawCells()) {
          newest = Math.max(newest, cell.getTimestamp());
        }
        m.mutate(new Delete(r.getRow()).addFamily(Bytes.toBytes("m"), newest));
      }
    }
    majorCompact(c, t);
  }

  /**
   * Compacts {@code t} and waits: the delete markers {@link #deleteMessages} leaves would otherwise
   * pile up over runs, every read would step over them, and a family marker widens its file's time
   * range down to 0, so every later update would read that whole file. Not part of any time.
   */
  static void majorCompact(Connection c, TableName t) throws IOException {
    try (Admin admin = c.getAdmin()) {
      admin.flush(t);
      admin.majorCompact(t);
      long started = System.currentTimeMillis();
      boolean seen = false;
      while (System.currentTimeMillis() - started < 600_000) {
        boolean running = admin.getCompactionState(t) != CompactionState.NONE;
        seen |= running;
        if (!running && (seen || System.currentTimeMillis() - started > 10_000)) {
          return;
        }
        Thread.sleep(250);
      }
      throw new IOException("the major compaction of " + t + " did not end within 10 minutes");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while compacting " + t, e);
    }
  }
}
