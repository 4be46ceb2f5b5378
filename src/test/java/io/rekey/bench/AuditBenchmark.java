package io.rekey.bench;

import io.rekey.audit.AuditJob;
import io.rekey.audit.AuditOptions;
import io.rekey.audit.AuditResult;
import io.rekey.common.Json;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.RunFiles;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.OptionValues;
import io.rekey.read.SourceReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.mapreduce.CellCounter;
import org.apache.hadoop.util.ToolRunner;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The audit benchmark: on one generated table, in one run and one JVM, times the audit against the
 * floor (a plain full scan through the same snapshot reader that only counts cells) and against
 * HBase's CellCounter (MapReduce, local job runner with as many map slots as Spark has cores). Then
 * audits a table twice as big and compares the audit's peak heap and the size of its merged
 * profile: they must stay flat. Prints JSON.
 *
 * <p>Run by {@code jobs/bench-audit.sh} against the local HBase.
 */
public final class AuditBenchmark {
  static final long SETTLE_MILLIS = 3000;
  static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";

  public static void main(String[] args) throws Exception {
    String table = args[0];
    String doubled = args[1];
    Path out = Path.of(args[2]);
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("audit-bench");
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      report.put("table", table);
      report.put("sparkMaster", sc.master());
      int rounds = Integer.parseInt(System.getProperty("bench.rounds", "7"));
      int cellCounterRounds = Integer.parseInt(System.getProperty("bench.cellCounterRounds", "2"));
      Map<String, Object> audit = null;
      Map<String, Object> floor = null;
      Map<String, Object> cellCounter = null;
      List<Double> auditTimes = new ArrayList<>();
      List<Double> floorTimes = new ArrayList<>();
      List<Double> cellCounterTimes = new ArrayList<>();
      // The audit and the floor first, in rounds of their own. CellCounter runs a MapReduce job in
      // this JVM: with it between the rounds, hundreds of methods were compiled again after each
      // of its runs and the method that followed it ran 0.1 to 0.25 s slower, the audit (more
      // code to warm up again) more than the floor. No audit or scan runs after a MapReduce job in
      // its JVM. The two take turns to go first.
      for (int round = 1; round <= rounds; round++) {
        if (round % 2 == 1) {
          audit = RekeyBenchmark.measure(() -> audit(sc, connection, conf, table).totals().cells());
          floor = RekeyBenchmark.measure(() -> countingScan(sc, connection, conf, table));
        } else {
          floor = RekeyBenchmark.measure(() -> countingScan(sc, connection, conf, table));
          audit = RekeyBenchmark.measure(() -> audit(sc, connection, conf, table).totals().cells());
        }
        if (round > 1) {
          auditTimes.add((double) audit.get("seconds"));
          floorTimes.add((double) floor.get("seconds"));
        }
        System.err.printf(
            "bench round %d of %d: audit %s s, floor %s s%n",
            round, rounds, audit.get("seconds"), floor.get("seconds"));
      }
      long cells = (long) floor.get("cells");
      for (int round = 1; round <= cellCounterRounds; round++) {
        long[] outputBytes = new long[1];
        cellCounter =
            RekeyBenchmark.measure(
                () -> {
                  outputBytes[0] = cellCounter(conf, table, out.getParent());
                  return cells;
                });
        cellCounter.put("outputBytes", outputBytes[0]);
        if (round > 1 || cellCounterRounds == 1) {
          cellCounterTimes.add((double) cellCounter.get("seconds"));
        }
        System.err.printf(
            "bench CellCounter round %d of %d: %s s%n",
            round, cellCounterRounds, cellCounter.get("seconds"));
      }
      // Let the region server settle after CellCounter's live scan before the memory audits.
      Thread.sleep(SETTLE_MILLIS);
      report.put(
          "measured",
          "the median of rounds 2 to "
              + rounds
              + " of the audit and the floor (the first warms up both; they take turns to go"
              + " first), then CellCounter's rounds after them (the first warms it up when there"
              + " are two or more); each method's last round in detail");
      report.put("sourceCells", floor.get("cells"));
      report.put("audit", audit);
      report.put("floorCountingScan", floor);
      cellCounter.put(
          "note",
          "HBase's CellCounter in the MapReduce local runner, a live scan through the region"
              + " server; it writes one line per row and qualifier (its output size is given)");
      report.put("cellCounter", cellCounter);
      double auditSeconds = median(auditTimes);
      double floorSeconds = median(floorTimes);
      double cellCounterSeconds = median(cellCounterTimes);
      report.put(
          "medianSeconds",
          Map.of("audit", auditSeconds, "floor", floorSeconds, "cellCounter", cellCounterSeconds));
      report.put(
          "warmRoundSeconds",
          Map.of("audit", auditTimes, "floor", floorTimes, "cellCounter", cellCounterTimes));
      report.put("auditOverFloor", RekeyBenchmark.round(auditSeconds / floorSeconds));
      // Each round's audit and floor ran back to back, under the same load from the rest of the
      // machine: the median of their ratios moves less than the ratio of the medians.
      List<Double> roundRatios = new ArrayList<>();
      for (int i = 0; i < auditTimes.size(); i++) {
        roundRatios.add(RekeyBenchmark.round(auditTimes.get(i) / floorTimes.get(i)));
      }
      report.put("auditOverFloorOfEachRound", roundRatios);
      report.put("auditOverFloorMedianOfRounds", RekeyBenchmark.round(median(roundRatios)));
      report.put("cellCounterOverAudit", RekeyBenchmark.round(cellCounterSeconds / auditSeconds));

      // Memory when the table doubles: same audit, a table with twice the rows.
      Map<String, Object> memory = new LinkedHashMap<>();
      for (String t : List.of(table, doubled)) {
        AuditResult[] result = new AuditResult[1];
        Map<String, Object> m =
            RekeyBenchmark.measure(
                () -> {
                  result[0] = audit(sc, connection, conf, t);
                  return result[0].totals().cells();
                });
        // What the audit holds does not grow with the table: each task's profile and the JSON.
        m.put("readTasks", result[0].sampling().readTasks());
        m.put("largestTaskProfileBytes", result[0].sampling().largestTaskProfileBytes());
        m.put("auditJsonBytes", Json.toJson(result[0]).length());
        memory.put(t, m);
      }
      report.put("memoryWhenTheTableDoubles", memory);
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(report, out);
    sc.stop();
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static AuditResult audit(
      JavaSparkContext sc, Connection connection, Configuration conf, String table) {
    AuditOptions options =
        AuditOptions.from(
            OptionValues.empty()
                .with("table", table)
                .with("source-key", SOURCE_KEY)
                .validate(AuditOptions.declared()));
    return new AuditJob(sc, connection, conf, options).execute();
  }

  /**
   * The floor: what any one-pass tool must pay. The same snapshot, the same raw scan and the same
   * read tasks as the audit; each task only counts its cells.
   */
  static long countingScan(
      JavaSparkContext sc, Connection connection, Configuration conf, String table) {
    TableName t = TableName.valueOf(table);
    TableAdmin admin = new TableAdmin(connection);
    String snapshot = "bench-floor-" + System.currentTimeMillis();
    org.apache.hadoop.fs.Path restore =
        new org.apache.hadoop.fs.Path(RunFiles.staging(conf, null), snapshot);
    admin.snapshot(t, snapshot);
    try {
      int pieces = SourceReader.readTasks(sc.defaultParallelism());
      return SourceReader.fromSnapshot(
              sc, conf, snapshot, restore, SourceReader.fullScan(10_000, true), pieces)
          .mapPartitions(
              rows -> {
                long n = 0;
                while (rows.hasNext()) {
                  n += rows.next()._2().size();
                }
                return List.of(n).iterator();
              })
          .reduce(Long::sum);
    } finally {
      admin.deleteSnapshot(snapshot);
      try {
        restore.getFileSystem(conf).delete(restore, true);
      } catch (java.io.IOException e) {
        System.err.println("bench: cannot delete " + restore + ": " + e.getMessage());
      }
    }
  }

  /**
   * HBase's CellCounter, as its docs show it, in the local job runner.
   *
   * @return the size of what it wrote: one line per row and qualifier
   */
  static long cellCounter(Configuration base, String table, Path benchDir) throws Exception {
    Configuration conf = new Configuration(base);
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    org.apache.hadoop.fs.Path output =
        new org.apache.hadoop.fs.Path(benchDir.toAbsolutePath().resolve("cellcounter-out").toUri());
    FileSystem fs = output.getFileSystem(conf);
    fs.delete(output, true);
    int exit = ToolRunner.run(conf, new CellCounter(), new String[] {table, output.toString()});
    if (exit != 0) {
      throw new IllegalStateException("CellCounter exited with " + exit);
    }
    return fs.getContentSummary(output).getLength();
  }

  private AuditBenchmark() {}
}
