package io.rekey.bench;

import io.rekey.generate.Message;
import io.rekey.generate.MessageGenerator;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.SyncJob;
import io.rekey.rekey.SyncOptions;
import io.rekey.rekey.SyncResult;
import io.rekey.run.RunFiles;
import io.rekey.spark.JobContext;
import io.rekey.stream.StreamPeer;
import io.rekey.stream.StreamSwitch;
import io.rekey.stream.StreamSwitchResult;
import io.rekey.stream.endpoint.StreamSettings;
import io.rekey.verify.VerifyJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The stream benchmark: on a clone of one source table, in one run and one JVM, each round starts a
 * stream the way {@code stream start} does (a disabled peer, the copy, the peer enabled), proves
 * the copy with a recorded {@code verify}, then runs a steady write load on the source for a while
 * (new messages stamped now, a tenth of them stamped a day ago, whole-row and column deletes) while
 * a probe measures the stream's lag end to end (the pace, {@code -Dbench.loadCellsPerSecond},
 * default 20,000; 0 writes as fast as one client goes, which outruns the stream on one host, and
 * ran the local HBase's 2 GB heap out until its memstore chunks stopped being humongous objects): a
 * cell written to the source, then read from the target under its new key until it is there. Then
 * the writers stop and it times {@code stream switch} (writers stopped → "switch"), and beside it,
 * on the same tables, the switch of the timestamp path: an incremental sync right after the stop
 * (not timed, as an operator runs them while writing), then {@code sync --final --repair} (timed).
 * Reports medians of the rounds after the first (a warm-up) and the per-round ratio of the two
 * pauses. Prints JSON.
 *
 * <p>Run by {@code jobs/bench-stream.sh}, against the local HBase, whose region server runs the
 * endpoint.
 */
public final class StreamBenchmark {
  static final String SOURCE = "bench:stream_src";
  static final String TARGET = "bench:stream_dst";
  static final String STATE = "bench:stream_state";
  static final String PEER = "rekey_bench_stream";
  static final long LAG_SECONDS = SyncBenchmark.LAG_SECONDS;
  private static final byte[] M = Bytes.toBytes("m");

  public static void main(String[] args) throws Exception {
    String from = args.length > 0 ? args[0] : "bench:messages";
    Path out = Path.of(args.length > 1 ? args[1] : "var/bench/stream-bench.json");
    int rounds = Integer.parseInt(System.getProperty("bench.rounds", "4"));
    long loadSeconds = Long.parseLong(System.getProperty("bench.loadSeconds", "30"));
    long loadRate = Long.parseLong(System.getProperty("bench.loadCellsPerSecond", "20000"));
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("stream-bench");
    KeyMapping mapping = KeyMapping.parse(RekeyBenchmark.SOURCE_KEY, RekeyBenchmark.TARGET_KEY);
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings);
        Admin admin = connection.getAdmin()) {
      long cells = RekeyBenchmark.countCells(connection, TableName.valueOf(from));
      report.put("source", from + " (cloned from its snapshot into " + SOURCE + " each round)");
      report.put("sourceCells", cells);
      report.put("mapping", RekeyBenchmark.SOURCE_KEY + "  =>  " + RekeyBenchmark.TARGET_KEY);
      report.put("sparkMaster", sc.master());
      report.put(
          "load",
          loadSeconds
              + " s of writes by one client's buffered mutator at "
              + (loadRate > 0 ? loadRate + " cells/s" : "its full speed")
              + ": new messages stamped"
              + " now, every tenth stamped a day ago (which the endpoint reads back from both"
              + " tables), every 50th a whole-row delete and every 50th"
              + " a column delete of a message written before");
      report.put(
          "settings",
          "switch: --settle 1, --drain-timeout 60; sync: --write auto, safety lag "
              + LAG_SECONDS
              + " s; sync --final --repair after an incremental sync right after the stop");
      List<Map<String, Object>> measured = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        StreamPeer.stop(admin, PEER);
        SyncBenchmark.clone(connection, from, SOURCE);
        RekeyBenchmark.fresh(connection, TARGET, null, null);
        OptionValues values = SyncBenchmark.migration(SOURCE, TARGET, STATE);
        JobContext job = new JobContext(sc, connection, conf);
        StreamSettings stream =
            new StreamSettings(
                TableName.valueOf(SOURCE),
                TableName.valueOf(TARGET),
                RekeyBenchmark.SOURCE_KEY,
                RekeyBenchmark.TARGET_KEY,
                Map.of());
        Map<String, Object> copy =
            RekeyBenchmark.measure(
                () -> {
                  StreamPeer.add(admin, admin, PEER, stream, false);
                  RekeyOptions o = RekeyOptions.from(values.validate(RekeyOptions.declared()));
                  long written =
                      new RekeyJob(job, o, RekeyJob.plan(job, o)).execute().cellsWritten();
                  StreamPeer.enable(admin, PEER);
                  return written;
                });
        Map<String, Object> verify =
            RekeyBenchmark.measure(
                () ->
                    VerifyJob.recorded(
                            job,
                            SyncBenchmark.verify(SOURCE, TARGET, STATE, ReadMode.LIVE_SCAN),
                            RunFiles.staging(conf, null))
                        .targetCells());

        Load load = new Load(connection, round, loadRate);
        Thread writer = new Thread(load::write, "bench-writer");
        writer.start();
        List<Double> lags = probe(connection, mapping, loadSeconds, round);
        load.running.set(false);
        writer.join();
        // After the writer's last cell, which it may have stamped in this very millisecond: a cell
        // stamped at the stop counts as written after it (sync --final's --writes-stopped-at).
        long stoppedAt = System.currentTimeMillis() + 1;

        long t0 = System.nanoTime();
        List<String> refusals = new ArrayList<>();
        StreamSwitchResult verdict = null;
        while (verdict == null || !verdict.switchNow()) {
          verdict =
              StreamSwitch.run(
                  connection,
                  connection,
                  StreamPeer.status(admin, PEER),
                  new StreamSwitch.Options(
                      TableName.valueOf(STATE),
                      Duration.ofSeconds(1),
                      Duration.ofSeconds(60),
                      Duration.ofHours(24),
                      null));
          if (!verdict.switchNow()) {
            refusals.add(verdict.refusal());
            if (refusals.size() > 5) {
              throw new IllegalStateException("the switch refused 6 times: " + refusals);
            }
          }
        }
        double switchPause = (System.nanoTime() - t0) / 1e9;

        // The timestamp path on the same tables: an incremental sync (as an operator runs them
        // while writing), then the final one with its comparison, timed.
        Thread.sleep(
            Math.max(0, stoppedAt + LAG_SECONDS * 1000 + 200 - System.currentTimeMillis()));
        new SyncJob(job, SyncOptions.from(values.validate(SyncOptions.declared()))).execute();
        OptionValues last =
            values
                .with("final", "true")
                .with("repair", "true")
                .with("writes-stopped-at", String.valueOf(stoppedAt));
        SyncResult[] finalSync = new SyncResult[1];
        Map<String, Object> sync =
            RekeyBenchmark.measure(
                () -> {
                  finalSync[0] =
                      new SyncJob(job, SyncOptions.from(last.validate(SyncOptions.declared())))
                          .execute();
                  return finalSync[0].totals().cellsRead();
                });
        StreamPeer.stop(admin, PEER);

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("round", round);
        r.put("copySeconds", copy.get("seconds"));
        r.put("verifySeconds", verify.get("seconds"));
        r.put("loadCellsWritten", load.cells.get());
        r.put("loadCellsPerSecond", RekeyBenchmark.round(load.cells.get() / (double) loadSeconds));
        r.put("lagProbes", lags.size());
        r.put("lagP50Seconds", percentile(lags, 0.50));
        r.put("lagP99Seconds", percentile(lags, 0.99));
        r.put("lagMaxSeconds", percentile(lags, 1.0));
        r.put("lagFirstThirdMedianSeconds", percentile(lags.subList(0, lags.size() / 3), 0.5));
        r.put(
            "lagLastThirdMedianSeconds",
            percentile(lags.subList(2 * lags.size() / 3, lags.size()), 0.5));
        r.put("switchPauseSeconds", RekeyBenchmark.round(switchPause));
        r.put("switchRefusals", refusals);
        r.put("switchAckSeconds", verdict.ackSeconds());
        r.put("finalSyncRepairSeconds", sync.get("seconds"));
        r.put("finalSyncSaysSwitch", finalSync[0].switchSafe());
        r.put(
            "switchVsFinalSyncRepair",
            RekeyBenchmark.round(switchPause / (double) sync.get("seconds")));
        System.err.println("bench stream round " + r);
        measured.add(r);
      }
      SyncBenchmark.medians(
          report,
          measured,
          List.of(
              "switchPauseSeconds",
              "finalSyncRepairSeconds",
              "switchVsFinalSyncRepair",
              "lagP50Seconds",
              "lagP99Seconds",
              "loadCellsPerSecond",
              "copySeconds",
              "verifySeconds"));
      report.put(
          "target",
          "switch pause <= 10 s on every table size (against sync --final --repair beside it);"
              + " lag p99 <= 5 s under the load, not growing over the run");
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(report, out);
    sc.stop();
  }

  /**
   * The stream's lag end to end for {@code seconds}: one probe cell at a time written to the
   * source, then read from the target under its new key until it is there.
   *
   * @return each probe's lag, seconds, in order
   */
  static List<Double> probe(Connection c, KeyMapping mapping, long seconds, int round)
      throws Exception {
    List<Double> lags = new ArrayList<>();
    long until = System.currentTimeMillis() + seconds * 1000;
    MessageGenerator probes =
        new MessageGenerator(9_000 + round, 1_000, System.currentTimeMillis(), 0, 1);
    try (Table source = c.getTable(TableName.valueOf(SOURCE));
        Table target = c.getTable(TableName.valueOf(TARGET))) {
      while (System.currentTimeMillis() < until) {
        byte[] row = Bytes.toBytes(probes.next().rowKey());
        byte[] newKey = mapping.map(row, ColumnValues.NONE);
        long t0 = System.nanoTime();
        source.put(new Put(row).addColumn(M, Bytes.toBytes("probe"), Bytes.toBytes(t0)));
        while (target.get(new Get(newKey).addColumn(M, Bytes.toBytes("probe"))).isEmpty()) {
          Thread.sleep(10);
        }
        lags.add(RekeyBenchmark.round((System.nanoTime() - t0) / 1e9));
        Thread.sleep(200);
      }
    }
    return lags;
  }

  static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int rank = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank)));
  }

  /** The write load: one buffered mutator, as fast as it goes, until told to stop. */
  static final class Load {
    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicLong cells = new AtomicLong();
    private final Connection connection;
    private final int round;
    private final long cellsPerSecond;

    /**
     * @param cellsPerSecond the pace; 0: as fast as the mutator goes
     */
    Load(Connection connection, int round, long cellsPerSecond) {
      this.connection = connection;
      this.round = round;
      this.cellsPerSecond = cellsPerSecond;
    }

    void write() {
      long dayAgo = System.currentTimeMillis() - 86_400_000L;
      MessageGenerator generator =
          new MessageGenerator(5_000 + round, 1_000, System.currentTimeMillis(), 0, 1);
      List<byte[]> written = new ArrayList<>();
      long start = System.nanoTime();
      try (BufferedMutator m = connection.getBufferedMutator(TableName.valueOf(SOURCE))) {
        for (long n = 0; running.get(); n++) {
          long due = cellsPerSecond == 0 ? 0 : cells.get() * 1_000 / cellsPerSecond;
          long ahead = due - (System.nanoTime() - start) / 1_000_000;
          if (ahead > 0) {
            m.flush();
            Thread.sleep(ahead);
          }
          Message message = generator.next();
          byte[] row = Bytes.toBytes(message.rowKey());
          Put p = new Put(row);
          for (Message.GeneratedCell cell : message.cells()) {
            // Stamped by the writer's clock (the generator's own times run ahead at this rate).
            long ts = n % 10 == 0 ? dayAgo + n : System.currentTimeMillis();
            p.addColumn(M, Bytes.toBytes(cell.qualifier()), ts, cell.value());
            cells.incrementAndGet();
          }
          m.mutate(p);
          written.add(row);
          if (n % 50 == 25 && written.size() > 100) {
            m.mutate(new Delete(written.get((int) (n % (written.size() - 50)))));
            cells.incrementAndGet();
          }
          if (n % 50 == 40 && written.size() > 100) {
            m.mutate(
                new Delete(written.get((int) ((n * 7) % (written.size() - 50))))
                    .addColumns(M, Bytes.toBytes(message.cells().get(0).qualifier())));
            cells.incrementAndGet();
          }
        }
      } catch (Exception e) {
        throw new IllegalStateException("the bench's writer failed", e);
      }
    }
  }
}
