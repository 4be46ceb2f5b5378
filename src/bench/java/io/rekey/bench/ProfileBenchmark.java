package io.rekey.bench;

import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Where rekey's, the index build's and the audit's time goes: each runs a few rounds to warm up,
 * then a few under Java Flight Recorder (its "profile" settings: a stack sample of every running
 * thread every 10-20 ms), and every sample is put in one bucket by the innermost frame that names a
 * step: the snapshot read, the key mapping, the shuffle, the sort, HFile appends, the bloom filter
 * and so on (frames of shared helpers, such as HBase's byte comparisons, name none and pass the
 * sample outward). The shares are the evidence for what bounds each job against its read floor.
 *
 * <p>Run by {@code jobs/bench-all.sh}.
 */
public final class ProfileBenchmark {
  /**
   * A step of the jobs, and the frames (class-name prefixes) whose presence puts a sample in it.
   */
  record Step(String name, List<String> frames) {}

  /** Checked for every frame from the innermost out; the first step a frame names wins. */
  static final List<Step> STEPS =
      List.of(
          new Step(
              "HFile bloom filter",
              List.of(
                  "org.apache.hadoop.hbase.io.hfile.CompoundBloomFilterWriter",
                  "org.apache.hadoop.hbase.util.BloomFilterChunk")),
          new Step(
              "HFile append (key checks, blocks, index, time range)",
              List.of(
                  "org.apache.hadoop.hbase.io.hfile.HFileWriterImpl",
                  "org.apache.hadoop.hbase.io.hfile.HFileBlock$Writer",
                  "org.apache.hadoop.hbase.regionserver.StoreFileWriter",
                  "org.apache.hadoop.hbase.io.encoding")),
          new Step("sort before writing", List.of("io.rekey.write.CellSorter")),
          new Step(
              "shuffle read",
              List.of(
                  "org.apache.spark.serializer.KryoDeserializationStream",
                  "org.apache.spark.shuffle.BlockStoreShuffleReader",
                  "org.apache.spark.storage.ShuffleBlockFetcherIterator")),
          new Step(
              "shuffle write",
              List.of(
                  "org.apache.spark.storage.DiskBlockObjectWriter",
                  "org.apache.spark.serializer.KryoSerializ",
                  "org.apache.spark.shuffle.sort",
                  "org.apache.spark.util.collection")),
          new Step(
              "snapshot read",
              List.of(
                  "io.rekey.read",
                  "org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat",
                  "org.apache.hadoop.hbase.client.ClientSideRegionScanner",
                  "org.apache.hadoop.hbase.regionserver.StoreScanner",
                  "org.apache.hadoop.hbase.regionserver.KeyValueHeap",
                  "org.apache.hadoop.hbase.regionserver.StoreFileScanner",
                  "org.apache.hadoop.hbase.regionserver.HRegion",
                  "org.apache.hadoop.hbase.regionserver.querymatcher",
                  "org.apache.hadoop.hbase.io.hfile.HFileReaderImpl",
                  "org.apache.hadoop.hbase.io.hfile.HFileBlock$FSReaderImpl")),
          new Step("key mapping", List.of("io.rekey.keys")),
          new Step(
              "cells to and from shuffle records",
              List.of("io.rekey.write.ShuffleCell", "io.rekey.write.RowsToCells")),
          new Step("audit sketches and profiles", List.of("io.rekey.sketch", "io.rekey.audit")),
          new Step("index entries", List.of("io.rekey.index")),
          new Step("rekey and write stages", List.of("io.rekey.rekey", "io.rekey.write")));

  public static void main(String[] args) throws Exception {
    String table = args[0];
    Path out = Path.of(args[1]);
    int warmUp = Integer.getInteger("bench.warmUp", 2);
    int recorded = Integer.getInteger("bench.rounds", 3);
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    org.apache.hadoop.conf.Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("profile-bench");
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("table", table);
    report.put(
        "how",
        warmUp
            + " warm-up rounds, then "
            + recorded
            + " rounds under JFR's profile settings; each executor-thread sample counted once, in"
            + " the step of its innermost frame that names one; shares of the executor samples");
    try (Connection connection = HBaseConnections.open(settings)) {
      Map<String, RekeyBenchmark.Timed> jobs = new LinkedHashMap<>();
      jobs.put("rekey", r -> RekeyBenchmark.rekey(sc, connection, conf, table, "bench:p_rekey", r));
      jobs.put(
          "indexBuild",
          r ->
              IndexBenchmark.build(
                  sc, connection, conf, IndexBenchmark.definition(table, "bench:p_ix"), r));
      jobs.put("audit", r -> AuditBenchmark.audit(sc, connection, conf, table, r));
      for (Map.Entry<String, RekeyBenchmark.Timed> job : jobs.entrySet()) {
        Path jfr = Files.createTempFile("profile-" + job.getKey(), ".jfr");
        for (int round = 0; round < warmUp + recorded; round++) {
          RekeyBenchmark.fresh(connection, "bench:p_rekey", null, null);
          RekeyBenchmark.fresh(connection, "bench:p_ix", null, null);
          IndexBenchmark.forgetState(connection, "bench:p_ix");
          if (round == warmUp) {
            try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
              recording.start();
              for (int r = 0; r < recorded; r++) {
                if (r > 0) {
                  RekeyBenchmark.fresh(connection, "bench:p_rekey", null, null);
                  RekeyBenchmark.fresh(connection, "bench:p_ix", null, null);
                  IndexBenchmark.forgetState(connection, "bench:p_ix");
                }
                job.getValue().cells(new LinkedHashMap<>());
              }
              recording.stop();
              recording.dump(jfr);
            }
            break;
          }
          job.getValue().cells(new LinkedHashMap<>());
        }
        report.put(job.getKey(), shares(jfr));
        Files.delete(jfr);
        System.err.println("bench profile " + job.getKey() + ": " + report.get(job.getKey()));
      }
      RekeyBenchmark.fresh(connection, "bench:p_rekey", null, null);
      RekeyBenchmark.fresh(connection, "bench:p_ix", null, null);
    }
    RekeyBenchmark.writeReport(report, out);
    sc.stop();
  }

  /** The executor threads' samples by step, as shares, and the driver's sample count beside. */
  static Map<String, Object> shares(Path jfr) throws Exception {
    Map<String, Long> byStep = new LinkedHashMap<>();
    long executor = 0;
    long driver = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
        continue;
      }
      String thread = e.getThread("sampledThread").getJavaName();
      if (thread == null || !thread.startsWith("Executor task launch worker")) {
        driver++;
        continue;
      }
      executor++;
      byStep.merge(step(e.getStackTrace().getFrames()), 1L, Long::sum);
    }
    Map<String, Object> shares = new LinkedHashMap<>();
    shares.put("executorSamples", executor);
    shares.put("otherThreadSamples", driver);
    Map<String, Double> pct = new LinkedHashMap<>();
    long total = executor;
    byStep.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(s -> pct.put(s.getKey(), RekeyBenchmark.round(100.0 * s.getValue() / total)));
    shares.put("percentOfExecutorSamples", pct);
    return shares;
  }

  static String step(List<RecordedFrame> frames) {
    for (RecordedFrame f : frames) {
      if (f.getMethod() == null) {
        continue;
      }
      String type = f.getMethod().getType().getName();
      for (Step s : STEPS) {
        for (String prefix : s.frames()) {
          if (type.startsWith(prefix)) {
            return s.name();
          }
        }
      }
    }
    return "other (Spark task machinery, JDK)";
  }

  private ProfileBenchmark() {}
}
