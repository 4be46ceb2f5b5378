package io.rekey.bench;

import io.rekey.audit.AuditJob;
import io.rekey.audit.AuditOptions;
import io.rekey.audit.AuditResult;
import io.rekey.common.Json;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.options.OptionValues;
import io.rekey.read.ReadOptions;
import io.rekey.spark.JobContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.mapreduce.CellCounter;
import org.apache.hadoop.util.ToolRunner;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The audit benchmark: on one generated table, in one run and one JVM, times the audit against the
 * floor (a plain full scan through the same snapshot reader that only counts cells) and against
 * HBase's CellCounter (MapReduce, local job runner with as many map slots as Spark has cores). Then
 * audits a bigger table (twice as big from bench-audit.sh, the scale curve's biggest from
 * bench-all.sh) and compares the audit's peak heap and the size of its merged profile: they must
 * stay flat. Prints JSON.
 *
 * <p>Run by {@code jobs/bench-audit.sh} against the local HBase.
 */
public final class AuditBenchmark {
  static final long SETTLE_MILLIS = 3000;
  static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";

  public static void main(String[] args) throws Exception {
    String table = args[0];
    String bigger = args[1];
    Path out = Path.of(args[2]);
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("audit-bench");
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      report.put("table", table);
      report.put("sparkMaster", sc.master());
      // The audit and the floor first, in rounds of their own. CellCounter runs a MapReduce job in
      // this JVM: with it between the rounds, hundreds of methods were compiled again after each
      // of its runs and the method that followed it ran 0.1 to 0.25 s slower, the audit (more
      // code to warm up again) more than the floor. No audit or scan runs after a MapReduce job in
      // its JVM.
      Rounds rounds =
          Rounds.fromProperties(9)
              .run(
                  "audit",
                  List.of(
                      new Rounds.Method("audit", r -> audit(sc, connection, conf, table, r)),
                      ReadFloor.method(sc, connection, conf, table, true)),
                  null);
      int cellCounterRounds = Integer.parseInt(System.getProperty("bench.cellCounterRounds", "2"));
      Map<String, Object> cellCounter = null;
      List<Double> cellCounterTimes = new ArrayList<>();
      Map<String, Object> floor = rounds.summary("floor");
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
      report.put("rounds", rounds.describe());
      report.put(
          "cellCounterRounds",
          "after the audit's rounds; the first warms it up when there are two or more");
      report.put("sourceCells", floor.get("cells"));
      report.put("audit", rounds.summary("audit"));
      report.put("floor", floor);
      cellCounter.put(
          "note",
          "HBase's CellCounter in the MapReduce local runner, a live scan through the region"
              + " server; it writes one line per row and qualifier (its output size is given)");
      report.put("cellCounter", cellCounter);
      double cellCounterSeconds = Rounds.median(cellCounterTimes);
      cellCounter.put("medianSeconds", cellCounterSeconds);
      cellCounter.put("secondsOfEachRound", cellCounterTimes);
      report.put("auditOverFloor", rounds.overFloor("audit", "floor"));
      report.put(
          "cellCounterOverAudit",
          RekeyBenchmark.round(cellCounterSeconds / rounds.medianSeconds("audit")));

      // Memory as the table grows: the same audit on a bigger table.
      Map<String, Object> memory = new LinkedHashMap<>();
      for (String t : List.of(table, bigger)) {
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
      report.put("memoryAsTheTableGrows", memory);
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(report, out);
    sc.stop();
  }

  /** An audit as {@code jobs/hbase-rekey.sh audit} runs it, recording its read and stages. */
  static long audit(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String table,
      Map<String, Object> record) {
    AuditResult r = audit(sc, connection, conf, table);
    record.put(
        "settings",
        Map.of(
            "readTasks",
            r.sampling().readTasks(),
            "scan",
            "snapshot; batch "
                + ReadOptions.BATCH.defaultValue()
                + ", caching 500, raw true, all versions true"));
    return r.totals().cells();
  }

  static AuditResult audit(
      JavaSparkContext sc, Connection connection, Configuration conf, String table) {
    AuditOptions options =
        AuditOptions.from(
            OptionValues.empty()
                .with("table", table)
                .with("source-key", SOURCE_KEY)
                .validate(AuditOptions.declared()));
    return new AuditJob(new JobContext(sc, connection, conf), options).execute();
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
