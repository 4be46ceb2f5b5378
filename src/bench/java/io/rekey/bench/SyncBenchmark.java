package io.rekey.bench;

import io.rekey.generate.Message;
import io.rekey.generate.MessageGenerator;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.RekeyResult;
import io.rekey.rekey.RepairJob;
import io.rekey.rekey.RepairOptions;
import io.rekey.rekey.RepairResult;
import io.rekey.rekey.SyncJob;
import io.rekey.rekey.SyncOptions;
import io.rekey.rekey.SyncResult;
import io.rekey.run.RunFiles;
import io.rekey.spark.JobContext;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The live-migration benchmark: on a copy of one source table, in one run and one JVM, each round
 * times a full {@code rekey} (snapshot, HFiles, bulk load; no verify) and then, after about 1% of
 * the table's cells were written anew (new messages, and whole-row deletes of old ones), a {@code
 * rekey sync} of those changes (no verify either). Reports the medians of the rounds after the
 * first (a warm-up), the median of the per-round ratios sync / rekey, the cost of a sync with
 * nothing to copy (its fixed cost, measured right after), the rows the sync read against the
 * table's, and how many rows the region servers looked at for the window (scan metrics), which
 * shows the time range skipping the older store files. Then about 1% of the rows get a cell stamped
 * a day ago (behind every window), and the round times a verify and a {@code rekey repair} (no
 * verify after it) of the same tables, and a repair of the equal tables after it. Prints JSON.
 *
 * <p>Run by {@code jobs/bench-sync.sh}, against the local HBase (or any cluster through
 * HBASE_CONF_DIR).
 */
public final class SyncBenchmark {
  static final String SOURCE_KEY = RekeyBenchmark.SOURCE_KEY;
  static final String TARGET_KEY = RekeyBenchmark.TARGET_KEY;
  static final String SOURCE = "bench:sync_src";
  static final String TARGET = "bench:sync_dst";
  static final String STATE = "bench:sync_state";
  static final long LAG_SECONDS = 1;

  public static void main(String[] args) throws Exception {
    String from = args.length > 0 ? args[0] : "bench:messages";
    Path out = Path.of(args.length > 1 ? args[1] : "var/bench/sync-bench.json");
    double percent = Double.parseDouble(System.getProperty("bench.syncPercent", "1"));
    int rounds = Integer.parseInt(System.getProperty("bench.rounds", "4"));
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("sync-bench");
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      long cells = RekeyBenchmark.countCells(connection, TableName.valueOf(from));
      long changes = Math.round(cells * percent / 100);
      report.put("source", from + " (cloned from its snapshot into " + SOURCE + " each round)");
      report.put("sourceCells", cells);
      report.put("mapping", SOURCE_KEY + "  =>  " + TARGET_KEY);
      report.put("sparkMaster", sc.master());
      report.put(
          "changes",
          "about "
              + percent
              + "% of the cells: new messages (5-6 cells each) for 90%, whole-row deletes of old"
              + " messages for 10%");
      report.put(
          "settings",
          "rekey: snapshot read, --no-verify; sync: --write auto, no verify; safety lag "
              + LAG_SECONDS
              + " s (one host)");
      List<Map<String, Object>> measured = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        clone(connection, from, SOURCE);
        RekeyBenchmark.fresh(connection, TARGET, null, null);
        OptionValues values = migration(SOURCE, TARGET, STATE);
        RekeyResult[] copied = new RekeyResult[1];
        Map<String, Object> rekey =
            RekeyBenchmark.measure(
                () -> {
                  RekeyOptions o = RekeyOptions.from(values.validate(RekeyOptions.declared()));
                  copied[0] =
                      new RekeyJob(
                              new JobContext(sc, connection, conf),
                              o,
                              RekeyJob.plan(new JobContext(sc, connection, conf), o))
                          .execute();
                  return copied[0].cellsWritten();
                });
        long[] written = change(connection, changes, round);
        // The window ends a safety lag before now: wait until the last change is inside it.
        Thread.sleep(
            Math.max(0, written[2] + LAG_SECONDS * 1000 + 100 - System.currentTimeMillis()));
        SyncResult[] synced = new SyncResult[1];
        Map<String, Object> sync =
            RekeyBenchmark.measure(
                () -> {
                  SyncOptions o = SyncOptions.from(values.validate(SyncOptions.declared()));
                  synced[0] = new SyncJob(new JobContext(sc, connection, conf), o).execute();
                  return synced[0].totals().cellsRead();
                });
        SyncResult s = synced[0];
        // A sync with nothing new right after: what every sync costs whatever it copies (lock,
        // state, a Spark job, the region scans), measured in the same round.
        Thread.sleep(LAG_SECONDS * 1000 + 100);
        SyncResult[] idle = new SyncResult[1];
        Map<String, Object> empty =
            RekeyBenchmark.measure(
                () -> {
                  SyncOptions o = SyncOptions.from(values.validate(SyncOptions.declared()));
                  idle[0] = new SyncJob(new JobContext(sc, connection, conf), o).execute();
                  return idle[0].totals().cellsRead();
                });
        // About 1% of the rows get a cell stamped a day ago: behind every window, so only a
        // comparison sees them. Then a verify and a repair of the same tables, and a repair of
        // the equal tables after it.
        long lateRows = late(connection, copied[0].rowsRead() / 100);
        Map<String, Object> verify =
            RekeyBenchmark.measure(
                () ->
                    VerifyJob.tables(
                            new JobContext(sc, connection, conf),
                            verify(SOURCE, TARGET, STATE, ReadMode.SNAPSHOT),
                            RunFiles.staging(conf, null))
                        .targetCells());
        RepairResult[] repaired = new RepairResult[2];
        Map<String, Object> repair =
            RekeyBenchmark.measure(
                () -> {
                  RepairOptions o = RepairOptions.from(values.validate(RepairOptions.declared()));
                  repaired[0] = new RepairJob(new JobContext(sc, connection, conf), o).execute();
                  return repaired[0].cellsWritten();
                });
        Map<String, Object> repairEqual =
            RekeyBenchmark.measure(
                () -> {
                  RepairOptions o = RepairOptions.from(values.validate(RepairOptions.declared()));
                  repaired[1] = new RepairJob(new JobContext(sc, connection, conf), o).execute();
                  return repaired[1].cellsWritten();
                });
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("round", round);
        r.put("rowsChangedBehindTheWatermark", lateRows);
        r.put("verifySeconds", verify.get("seconds"));
        r.put("repairSeconds", repair.get("seconds"));
        r.put(
            "repairVsVerify",
            RekeyBenchmark.round((double) repair.get("seconds") / (double) verify.get("seconds")));
        r.put("repairRowsDiffering", repaired[0].rowsDiffering());
        r.put("repairCellsWritten", repaired[0].cellsWritten());
        r.put("repairCompareSeconds", repaired[0].compareSeconds());
        r.put("repairOfEqualTablesSeconds", repairEqual.get("seconds"));
        r.put("repairOfEqualTablesCellsWritten", repaired[1].cellsWritten());
        r.put("rekeySeconds", rekey.get("seconds"));
        r.put("rekeyStages", copied[0].stageSeconds());
        r.put("syncSeconds", sync.get("seconds"));
        r.put(
            "syncVsRekey",
            RekeyBenchmark.round((double) sync.get("seconds") / (double) rekey.get("seconds")));
        r.put("syncWindowSeconds", s.windows().isEmpty() ? null : s.windows().get(0).seconds());
        r.put("emptySyncSeconds", empty.get("seconds"));
        r.put("emptySyncCellsRead", idle[0].totals().cellsRead());
        r.put(
            "syncAboveEmptyVsRekey",
            RekeyBenchmark.round(
                ((double) sync.get("seconds") - (double) empty.get("seconds"))
                    / (double) rekey.get("seconds")));
        r.put("cellsChanged", written[0] + written[1]);
        r.put("syncWindows", s.windows().size());
        r.put("syncWrite", s.windows().isEmpty() ? null : s.windows().get(0).write());
        r.put("syncRowsRead", s.totals().rowsRead());
        r.put("syncCellsRead", s.totals().cellsRead());
        r.put("syncDeleteMarkers", s.totals().deletesRead());
        r.put("syncCellsWritten", s.totals().cellsOut());
        r.put("sourceRows", copied[0].rowsRead());
        r.put("regionServerRowsScannedForTheWindow", rowsScanned(connection, s));
        r.put("syncPeakLiveHeapMiB", sync.get("peakLiveHeapMiB"));
        System.err.println("bench sync round " + r);
        measured.add(r);
      }
      List<Map<String, Object>> counted =
          measured.subList(Math.min(1, measured.size() - 1), measured.size());
      report.put("rounds", measured);
      report.put("measured", "medians of rounds 2.." + rounds + "; round 1 warms up");
      double rekeyMedian = median(counted, "rekeySeconds");
      double syncMedian = median(counted, "syncSeconds");
      report.put("rekeySecondsMedian", rekeyMedian);
      report.put("syncSecondsMedian", syncMedian);
      report.put("syncVsRekeyMedianOfRatios", median(counted, "syncVsRekey"));
      report.put("syncVsRekeyOfMedians", RekeyBenchmark.round(syncMedian / rekeyMedian));
      report.put("emptySyncSecondsMedian", median(counted, "emptySyncSeconds"));
      report.put("syncAboveEmptyVsRekeyMedianOfRatios", median(counted, "syncAboveEmptyVsRekey"));
      report.put("repairVsVerifyMedianOfRatios", median(counted, "repairVsVerify"));
      report.put("repairSecondsMedian", median(counted, "repairSeconds"));
      report.put("verifySecondsMedian", median(counted, "verifySeconds"));
      report.put(
          "target",
          "sync of 1% <= 0.05 of the full rekey; repair of 1% differing rows <= 1.5x a verify of"
              + " the same tables, writing only the differing rows, and nothing for equal tables");
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(report, out);
    sc.stop();
  }

  /**
   * The options of a migration of {@code source} into {@code target} that the rekey, sync and
   * repair of a bench share: the bench mapping, no verify, a safety lag of {@link #LAG_SECONDS}.
   */
  static OptionValues migration(String source, String target, String state) {
    return OptionValues.empty()
        .with("source", source)
        .with("target", target)
        .with("source-key", SOURCE_KEY)
        .with("target-key", TARGET_KEY)
        .with("no-verify", "true")
        .with("state-table", state)
        .with("safety-lag", String.valueOf(LAG_SECONDS))
        .with("allow-short-lag", "true");
  }

  /**
   * A full comparison of a bench migration through the bench mapping, as {@code verify} runs it.
   */
  static VerifyOptions verify(String source, String target, String state, ReadMode read) {
    return verify(source, target, SOURCE_KEY, TARGET_KEY, state, read);
  }

  /** A full comparison through the layouts given, as {@code verify} runs it. */
  static VerifyOptions verify(
      String source,
      String target,
      String sourceKey,
      String targetKey,
      String state,
      ReadMode read) {
    return new VerifyOptions(
        TableName.valueOf(source),
        TableName.valueOf(target),
        RekeyOptions.mapping(sourceKey, targetKey),
        read,
        1000,
        false,
        null,
        state,
        null,
        false);
  }

  /** {@code to} becomes a fresh clone of {@code from} (a snapshot's links: no data copied). */
  static void clone(Connection c, String from, String to) throws Exception {
    RekeyBenchmark.fresh(c, to, null, null);
    try (Admin admin = c.getAdmin()) {
      String snapshot = "bench-sync-clone";
      if (!admin.listSnapshots(java.util.regex.Pattern.compile(snapshot)).isEmpty()) {
        admin.deleteSnapshot(snapshot);
      }
      admin.snapshot(snapshot, TableName.valueOf(from));
      admin.cloneSnapshot(snapshot, TableName.valueOf(to));
      admin.deleteSnapshot(snapshot);
    }
  }

  /**
   * Writes about {@code cells} changes to the source, stamped now: new messages for 90%, whole-row
   * deletes of old messages for the rest.
   *
   * @return cells put, rows deleted, the newest timestamp written
   */
  static long[] change(Connection c, long cells, int round) throws Exception {
    long start = System.currentTimeMillis();
    MessageGenerator generator = new MessageGenerator(1_000 + round, 1_000, start, 0, 1);
    long put = 0;
    long newest = start;
    long deletes = Math.max(1, cells / 10);
    TableName source = TableName.valueOf(SOURCE);
    try (BufferedMutator m = c.getBufferedMutator(source)) {
      while (put < cells - deletes) {
        Message message = generator.next();
        Put p = new Put(Bytes.toBytes(message.rowKey()));
        for (Message.GeneratedCell cell : message.cells()) {
          p.addColumn(
              Bytes.toBytes("m"), Bytes.toBytes(cell.qualifier()), cell.timestamp(), cell.value());
          newest = Math.max(newest, cell.timestamp());
          put++;
        }
        m.mutate(p);
      }
      long deleted = 0;
      try (Table t = c.getTable(source);
          ResultScanner s =
              t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(1000))) {
        long seen = 0;
        for (Result r : s) {
          // Spread over the table: every 97th row.
          if (seen++ % 97 == 0 && deleted < deletes) {
            m.mutate(new Delete(r.getRow()));
            deleted++;
          }
        }
      }
      newest = Math.max(newest, System.currentTimeMillis());
      return new long[] {put, deleted, newest};
    }
  }

  /**
   * Gives every 100th row of the source (about {@code rows} of them) one more cell stamped a day
   * ago, which no sync window sees.
   *
   * @return the rows changed
   */
  static long late(Connection c, long rows) throws Exception {
    long stamp = System.currentTimeMillis() - 86_400_000L;
    long changed = 0;
    try (BufferedMutator m = c.getBufferedMutator(TableName.valueOf(SOURCE));
        Table t = c.getTable(TableName.valueOf(SOURCE));
        ResultScanner s =
            t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(1000))) {
      long seen = 0;
      for (Result r : s) {
        if (seen++ % 100 == 0 && changed < rows) {
          m.mutate(
              new Put(r.getRow())
                  .addColumn(Bytes.toBytes("m"), Bytes.toBytes("late"), stamp, Bytes.toBytes(1L)));
          changed++;
        }
      }
    }
    return changed;
  }

  /** Rows the region servers looked at for the sync's window, from a scan with its time range. */
  static long rowsScanned(Connection c, SyncResult s) throws Exception {
    Scan scan =
        new Scan()
            .setRaw(true)
            .readAllVersions()
            .setTimeRange(s.windowFrom(), s.windowTo())
            .setScanMetricsEnabled(true)
            .setCaching(1000);
    try (Table t = c.getTable(TableName.valueOf(SOURCE));
        ResultScanner r = t.getScanner(scan)) {
      while (r.next() != null) {
        // Only the metrics are wanted.
      }
      ScanMetrics metrics = r.getScanMetrics();
      return metrics.countOfRowsScanned.get();
    }
  }

  /**
   * Puts every round into {@code report}, and for each of {@code keys} its median over the rounds
   * after the first (a warm-up) as {@code KEYMedian}.
   */
  static void medians(
      Map<String, Object> report, List<Map<String, Object>> measured, List<String> keys) {
    List<Map<String, Object>> counted =
        measured.subList(Math.min(1, measured.size() - 1), measured.size());
    report.put("rounds", measured);
    report.put("measured", "medians of rounds 2.." + measured.size() + "; round 1 warms up");
    for (String key : keys) {
      report.put(key + "Median", median(counted, key));
    }
  }

  static double median(List<Map<String, Object>> rounds, String key) {
    List<Double> values = new ArrayList<>();
    for (Map<String, Object> r : rounds) {
      values.add(((Number) r.get(key)).doubleValue());
    }
    values.sort(null);
    int n = values.size();
    return n % 2 == 1
        ? values.get(n / 2)
        : RekeyBenchmark.round((values.get(n / 2 - 1) + values.get(n / 2)) / 2);
  }
}
