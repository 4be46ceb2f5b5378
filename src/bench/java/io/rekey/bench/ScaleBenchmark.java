package io.rekey.bench;

import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.OptionValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The scale curve: rekey, index build (with its Put-based peer), audit and the read floor on tables
 * of growing size (by default about 2, 10 and 20 million cells), in one JVM, rounds rotated as in
 * the other benchmarks. For each size and method: time per cell and the most live heap. Time per
 * cell should stay flat as the table grows ({@link BenchReport} says whether it does).
 *
 * <p>Run by {@code jobs/bench-all.sh} (or alone: {@code jobs/bench-scale.sh}).
 */
public final class ScaleBenchmark {
  static final String REKEY_TARGET = "bench:s_rekey";
  static final String INDEX = "bench:s_ix";
  static final String INDEX_PUT = "bench:s_ix_put";

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    List<String> tables = List.of(args).subList(1, args.length);
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("scale-bench");
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("sparkMaster", sc.master());
    report.put("heap", Runtime.getRuntime().maxMemory() >> 20);
    int measured = Integer.getInteger("bench.rounds", 3);
    List<Map<String, Object>> sizes = new ArrayList<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      boolean first = true;
      for (String table : tables) {
        sizes.add(size(sc, connection, conf, table, new Rounds(first ? 1 : 0, measured)));
        first = false;
        RekeyBenchmark.writeReport(withSizes(report, sizes), out);
      }
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(withSizes(report, sizes), out);
    sc.stop();
  }

  private static Map<String, Object> withSizes(
      Map<String, Object> report, List<Map<String, Object>> sizes) {
    report.put("sizes", sizes);
    return report;
  }

  /** Every method's rounds on one table. */
  static Map<String, Object> size(
      JavaSparkContext sc, Connection connection, Configuration conf, String table, Rounds rounds)
      throws Exception {
    OptionValues index = IndexBenchmark.definition(table, INDEX);
    // An untimed build first gives the index's regions for the Put builder's table.
    dropAll(connection);
    IndexBenchmark.build(sc, connection, conf, index, new LinkedHashMap<>());
    TableDescriptor built = connection.getAdmin().getDescriptor(TableName.valueOf(INDEX));
    List<byte[]> starts = new TableAdmin(connection).regionStartKeys(built.getTableName());
    List<byte[]> splits = new ArrayList<>(starts.subList(1, starts.size()));
    rounds.run(
        "scale " + table,
        List.of(
            new Rounds.Method(
                "rekey", r -> RekeyBenchmark.rekey(sc, connection, conf, table, REKEY_TARGET, r)),
            new Rounds.Method(
                "indexBuild", r -> IndexBenchmark.build(sc, connection, conf, index, r)),
            new Rounds.Method(
                "indexPutBased",
                r ->
                    IndexBenchmark.putBuild(
                        sc, connection, conf, IndexBenchmark.definition(table, INDEX_PUT), r)),
            new Rounds.Method("audit", r -> AuditBenchmark.audit(sc, connection, conf, table, r)),
            ReadFloor.method(sc, connection, conf, table, false)),
        () -> {
          dropAll(connection);
          new TableAdmin(connection)
              .create(TableDescriptorBuilder.copy(TableName.valueOf(INDEX_PUT), built), splits);
        });
    Map<String, Object> size = new LinkedHashMap<>();
    size.put("table", table);
    size.put("cells", rounds.summary("floor").get("cells"));
    size.put("rounds", rounds.describe());
    for (String m : List.of("rekey", "indexBuild", "indexPutBased", "audit", "floor")) {
      Map<String, Object> s = rounds.summary(m);
      if (!m.equals("floor") && !m.equals("indexPutBased")) {
        s.put("medianStageSeconds", rounds.medianStages(m));
      }
      size.put(m, s);
    }
    size.put("rekeyOverFloor", rounds.overFloor("rekey", "floor"));
    size.put("indexBuildVsPutBased", rounds.speedup("indexBuild", "indexPutBased"));
    size.put("auditOverFloor", rounds.overFloor("audit", "floor"));
    dropAll(connection);
    return size;
  }

  private static void dropAll(Connection connection) throws Exception {
    for (String t : List.of(REKEY_TARGET, INDEX, INDEX_PUT)) {
      RekeyBenchmark.fresh(connection, t, null, null);
    }
    IndexBenchmark.forgetState(connection, INDEX);
  }

  private ScaleBenchmark() {}
}
