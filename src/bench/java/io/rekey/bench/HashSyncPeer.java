package io.rekey.bench;

import io.rekey.options.ReadMode;
import io.rekey.run.RunFiles;
import io.rekey.spark.JobContext;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import io.rekey.verify.VerifyResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.mapreduce.HashTable;
import org.apache.hadoop.hbase.mapreduce.SyncCounters;
import org.apache.hadoop.hbase.mapreduce.SyncTable;
import org.apache.hadoop.util.ToolRunner;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Verify against the check operators use today on a copy: HBase's HashTable of the source, then
 * SyncTable {@code --dryrun} against the copy (MapReduce, the local job runner with as many map and
 * reduce slots as Spark has cores). Both compare every version of every cell of a same-key copy
 * (the copy floor's table); verify reads a snapshot of each side, HashTable and SyncTable scan the
 * live tables (they cannot read snapshots), which nothing writes meanwhile. Verify's rounds run
 * first: a MapReduce job in this JVM makes the Spark code that follows it slower (AuditBenchmark).
 */
final class HashSyncPeer {
  /** HashTable's default; kept, as a user who did not tune it would. */
  private static final String ALL_VERSIONS = String.valueOf(Integer.MAX_VALUE);

  private HashSyncPeer() {}

  /** Times both on {@code source} and its same-key copy {@code copy}; returns the report. */
  static Map<String, Object> compare(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String source,
      String copy,
      String sourceKey,
      Path benchDir)
      throws Exception {
    VerifyOptions options =
        SyncBenchmark.verify(source, copy, sourceKey, sourceKey, null, ReadMode.SNAPSHOT);
    Rounds rounds =
        Rounds.fromProperties(5)
            .run(
                "verify",
                List.of(
                    new Rounds.Method(
                        "verify",
                        r -> {
                          VerifyResult v =
                              VerifyJob.tables(
                                  new JobContext(sc, connection, conf),
                                  options,
                                  RunFiles.staging(conf, null));
                          if (!v.matches()) {
                            throw new IllegalStateException("verify of the copy does not match");
                          }
                          r.put("settings", Map.of("read", "snapshots, batch 1000"));
                          return v.sourceCells() + v.targetCells();
                        })),
                null);
    int hashSyncRounds = Integer.getInteger("bench.hashSyncRounds", 3);
    List<Double> seconds = new ArrayList<>();
    Map<String, Object> last = null;
    for (int round = 1; round <= hashSyncRounds; round++) {
      long[] mismatched = new long[1];
      last =
          RekeyBenchmark.measure(
              () -> {
                mismatched[0] = hashThenSync(conf, source, copy, benchDir);
                return 0;
              });
      if (mismatched[0] != 0) {
        throw new IllegalStateException(
            "SyncTable found " + mismatched[0] + " hash batches differing in the copy");
      }
      if (round > 1 || hashSyncRounds == 1) {
        seconds.add((double) last.get("seconds"));
      }
      System.err.printf(
          "bench HashTable + SyncTable round %d of %d: %s s%n",
          round, hashSyncRounds, last.get("seconds"));
    }
    Map<String, Object> verify = rounds.summary("verify");
    Map<String, Object> peer = new LinkedHashMap<>();
    peer.put("secondsOfEachRound", seconds);
    peer.put("medianSeconds", RekeyBenchmark.round(Rounds.median(seconds)));
    peer.put(
        "note",
        "HBase's HashTable (every version, batch and hash files as its defaults but one hash file"
            + " per core) then SyncTable --dryrun=true, MapReduce's local runner with 2 map and 2"
            + " reduce slots, live scans; rounds after verify's, the first a warm-up");
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("rounds", rounds.describe());
    report.put("verify", verify);
    report.put("hashTableSyncTable", peer);
    // Their rounds are not paired (MapReduce runs after every Spark round): the ratio of the
    // medians, with the spread from the slowest and fastest rounds of each.
    @SuppressWarnings("unchecked")
    List<Double> verifySeconds = (List<Double>) verify.get("secondsOfEachRound");
    double ofMedians = (double) peer.get("medianSeconds") / (double) verify.get("medianSeconds");
    Map<String, Object> ratio = new LinkedHashMap<>();
    ratio.put("medianOfRounds", RekeyBenchmark.round(ofMedians));
    ratio.put("ofMedians", RekeyBenchmark.round(ofMedians));
    ratio.put(
        "min",
        RekeyBenchmark.round(
            java.util.Collections.min(seconds) / java.util.Collections.max(verifySeconds)));
    ratio.put(
        "max",
        RekeyBenchmark.round(
            java.util.Collections.max(seconds) / java.util.Collections.min(verifySeconds)));
    ratio.put("note", "rounds not paired: the ratio of the medians");
    report.put("verifyVsHashTableSyncTable", ratio);
    return report;
  }

  /** HashTable of {@code source}, then a dry SyncTable of {@code copy}; the batches that differ. */
  private static long hashThenSync(Configuration base, String source, String copy, Path benchDir)
      throws Exception {
    Configuration conf = new Configuration(base);
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    org.apache.hadoop.fs.Path hashes =
        new org.apache.hadoop.fs.Path(benchDir.toAbsolutePath().resolve("hashtable-out").toUri());
    org.apache.hadoop.fs.Path synced =
        new org.apache.hadoop.fs.Path(benchDir.toAbsolutePath().resolve("synctable-out").toUri());
    FileSystem fs = hashes.getFileSystem(conf);
    fs.delete(hashes, true);
    fs.delete(synced, true);
    int hashed =
        ToolRunner.run(
            conf,
            new HashTable(conf),
            new String[] {
              "--versions=" + ALL_VERSIONS, "--numhashfiles=2", source, hashes.toString()
            });
    if (hashed != 0) {
      throw new IllegalStateException("HashTable exited with " + hashed);
    }
    SyncTable sync = new SyncTable(conf);
    int exit =
        ToolRunner.run(conf, sync, new String[] {"--dryrun=true", hashes.toString(), source, copy});
    if (exit != 0) {
      throw new IllegalStateException("SyncTable exited with " + exit);
    }
    return SyncCounters.notMatched(sync);
  }
}
