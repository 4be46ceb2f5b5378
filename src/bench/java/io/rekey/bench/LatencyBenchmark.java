package io.rekey.bench;

import io.rekey.audit.AuditJob;
import io.rekey.audit.AuditOptions;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.index.IndexJob;
import io.rekey.index.IndexRunOptions;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionValues;
import io.rekey.pacing.Throttle;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.SyncJob;
import io.rekey.rekey.SyncOptions;
import io.rekey.spark.JobContext;
import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.StreamSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;

/**
 * What the tool's jobs do to the cluster's own users: a {@link ForegroundLoad} of Gets and Puts at
 * a fixed rate on a table of its own runs through the whole benchmark, and its latencies are
 * labelled with what the tool was doing: nothing (idle), a rekey (its Spark stages, and the
 * driver's part without a Spark job: snapshot, plan, commit and bulk load), a rekey sync written
 * with Puts, an index update with Puts, and an audit by live scan. Each round measures idle first;
 * the figures are each label's p50, p99 and max and its p99 over the round's idle p99, medians over
 * the rounds after the first. Each round runs every job twice, with its defaults and with {@code
 * --gentle}, in turn first, and records each job's time and the cores it kept busy (what the
 * throttles cost, and whether a job was bound by the CPU it shares with the region server). Prints
 * JSON with a per-second timeline.
 *
 * <p>Run by {@code jobs/bench-latency.sh}, against the local HBase (or HBASE_CONF_DIR).
 */
public final class LatencyBenchmark {
  static final String FOREGROUND = "bench:foreground";
  static final String INDEX = "bench:lat_index";
  static final int FOREGROUND_ROWS = 20_000;
  static final String IDLE = "idle";
  static final String SETUP = "setup (not measured)";

  /** The label of the stream's drain of a backlog. */
  static final String STREAM = "stream (draining a backlog)";

  /** How the stream's labels start. */
  private static final String STREAM_LABELS = "stream (";

  /** The label of the same drain with the peer's bandwidth limited ({@code stream --bandwidth}). */
  static String streamLimited(long bytesPerSecond) {
    return "stream (draining a backlog, --bandwidth " + bytesPerSecond + ")";
  }

  static final String STREAM_PEER = "rekey_bench_latency";

  /** How a label says the job ran with {@code --gentle}. */
  static final String GENTLE = " --gentle";

  private static volatile String phase = SETUP;
  private static final AtomicInteger sparkJobs = new AtomicInteger();

  public static void main(String[] args) throws Exception {
    String from = args.length > 0 ? args[0] : "bench:messages";
    Path out = Path.of(args.length > 1 ? args[1] : "var/bench/latency-bench.json");
    int rounds = Integer.parseInt(System.getProperty("bench.rounds", "3"));
    int rate = Integer.parseInt(System.getProperty("bench.foregroundRate", "200"));
    double putShare = Double.parseDouble(System.getProperty("bench.foregroundPuts", "0.2"));
    int idleSeconds = Integer.parseInt(System.getProperty("bench.idleSeconds", "60"));
    int streamBacklog = Integer.parseInt(System.getProperty("bench.streamBacklog", "100000"));
    long bandwidth = Long.parseLong(System.getProperty("bench.streamBandwidth", "4194304"));
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = RekeyBenchmark.spark("latency-bench");
    sc.sc().addSparkListener(new JobCounter());
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("source", from + " (cloned into " + SyncBenchmark.SOURCE + " each round)");
    report.put(
        "foreground",
        rate
            + " operations/s on "
            + FOREGROUND
            + " ("
            + FOREGROUND_ROWS
            + " rows of 200 bytes, 4 regions): "
            + Math.round(putShare * 100)
            + "% Puts, the rest Gets; open loop, latency from each operation's due time");
    report.put("sparkMaster", sc.master());
    report.put(
        "throttles",
        "every job twice a round, with its defaults and with"
            + GENTLE
            + " ("
            + Throttle.GENTLE_PRESET.describe()
            + "), in turn first; then the stream once, draining a backlog of "
            + streamBacklog
            + " messages written while its peer was disabled (the writes not measured), at full"
            + " speed, then again with the peer's bandwidth at "
            + bandwidth
            + " bytes/s ('stream start --bandwidth')");
    List<Round> measured = new ArrayList<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      TableName fg = foregroundTable(connection);
      try (ForegroundLoad load =
          new ForegroundLoad(
              connection, fg, FOREGROUND_ROWS, rate, putShare, LatencyBenchmark::label)) {
        for (int round = 1; round <= rounds; round++) {
          measured.add(
              round(
                  sc, connection, conf, from, round, idleSeconds, streamBacklog, bandwidth, load));
          System.err.println("bench: latency round " + round + ": " + measured.get(round - 1));
        }
        report.put("foregroundFailures", load.failures());
        report.put("timeline", load.timeline());
      }
    }
    List<Round> counted = measured.size() > 1 ? measured.subList(1, measured.size()) : measured;
    report.put("medians", medians(counted.stream().map(Round::latency).toList()));
    report.put("jobMedians", medians(counted.stream().map(Round::jobs).toList()));
    report.put("rounds", measured);
    RekeyBenchmark.writeReport(report, out);
    Path page = out.resolveSibling("latency-bench.html");
    java.nio.file.Files.writeString(
        page, LatencyPage.render(io.rekey.common.Json.mapper().valueToTree(report)));
    System.err.println("bench: the page is " + page);
    System.exit(0);
  }

  /** What the foreground's latencies are labelled with now. */
  private static String label() {
    String p = phase;
    if (p.equals(IDLE) || p.equals(SETUP) || p.startsWith(STREAM_LABELS)) {
      return p; // the stream runs in the region server, not in Spark
    }
    return p + (sparkJobs.get() > 0 ? ": Spark job" : ": driver, no Spark job");
  }

  /** What one round measured: the foreground's figures per label, and each job's own. */
  record Round(Map<String, Map<String, Object>> latency, Map<String, Map<String, Object>> jobs) {}

  /**
   * Idle first, then the jobs twice: with their defaults and with {@code --gentle}, in turn first
   * (odd rounds start without throttles, even ones with), so neither always runs on a warmer
   * cluster; then the stream.
   */
  private static Round round(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String from,
      int round,
      int idleSeconds,
      int streamBacklog,
      long bandwidth,
      ForegroundLoad load)
      throws Exception {
    phase = SETUP;
    load.takeByLabel();
    phase = IDLE;
    Thread.sleep(idleSeconds * 1000L);
    Map<String, Map<String, Object>> jobs = new LinkedHashMap<>();
    Configuration gentle = new Configuration(conf);
    Throttle.GENTLE_PRESET.properties().forEach(gentle::set);
    boolean gentleFirst = round % 2 == 0;
    for (boolean g : gentleFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
      jobs(sc, connection, g ? gentle : conf, from, round, g ? GENTLE : "", jobs);
    }
    stream(connection, round, streamBacklog, 0, jobs);
    stream(connection, round, streamBacklog, bandwidth, jobs);
    phase = SETUP;
    Thread.sleep(1_500); // the last second's sample goes to the audit

    Map<String, Histogram> byLabel = load.takeByLabel();
    byLabel.remove(SETUP);
    Histogram idle = byLabel.get(IDLE);
    double idleP99 = idle == null ? Double.NaN : idle.getValueAtPercentile(99);
    Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
    byLabel.forEach(
        (label, h) -> {
          Map<String, Object> f = ForegroundLoad.figures(h);
          f.put("p99OverIdle", RekeyBenchmark.round(h.getValueAtPercentile(99) / idleP99));
          figures.put(label, f);
        });
    return new Round(figures, jobs);
  }

  /**
   * A fresh copy of the source, target and index, then rekey, rekey sync with Puts, index update
   * with Puts and a live-scan audit, each timed with the cores it kept busy, labelled with {@code
   * suffix} (the throttle).
   */
  private static void jobs(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String from,
      int round,
      String suffix,
      Map<String, Map<String, Object>> jobs)
      throws Exception {
    phase = SETUP;
    SyncBenchmark.clone(connection, from, SyncBenchmark.SOURCE);
    RekeyBenchmark.fresh(connection, SyncBenchmark.TARGET, null, null);
    OptionValues index = IndexBenchmark.definition(SyncBenchmark.SOURCE, INDEX);
    RekeyBenchmark.fresh(connection, INDEX, null, null);
    IndexJob.build(
            new JobContext(sc, connection, conf),
            IndexRunOptions.forBuild(index.validate(IndexRunOptions.declaredForBuild())))
        .execute();
    OptionValues migration =
        OptionValues.empty()
            .with("source", SyncBenchmark.SOURCE)
            .with("target", SyncBenchmark.TARGET)
            .with("source-key", SyncBenchmark.SOURCE_KEY)
            .with("target-key", SyncBenchmark.TARGET_KEY)
            .with("no-verify", "true")
            .with("state-table", SyncBenchmark.STATE)
            .with("safety-lag", String.valueOf(SyncBenchmark.LAG_SECONDS))
            .with("allow-short-lag", "true");
    RekeyOptions r = RekeyOptions.from(migration.validate(RekeyOptions.declared()));
    timed(
        "rekey" + suffix,
        jobs,
        () ->
            new RekeyJob(
                    new JobContext(sc, connection, conf),
                    r,
                    RekeyJob.plan(new JobContext(sc, connection, conf), r))
                .execute());

    phase = SETUP;
    long cells = RekeyBenchmark.countCells(connection, TableName.valueOf(SyncBenchmark.SOURCE));
    long[] written = SyncBenchmark.change(connection, cells / 100, round);
    Thread.sleep(
        Math.max(
            0, written[2] + SyncBenchmark.LAG_SECONDS * 1000 + 100 - System.currentTimeMillis()));
    SyncOptions s =
        SyncOptions.from(migration.with("write", "puts").validate(SyncOptions.declared()));
    timed(
        "rekey sync (Puts)" + suffix,
        jobs,
        () -> new SyncJob(new JobContext(sc, connection, conf), s).execute());
    IndexRunOptions update =
        IndexRunOptions.forUpdate(
            index.with("write", "puts").validate(IndexRunOptions.declaredForUpdate()));
    timed(
        "index update (Puts)" + suffix,
        jobs,
        () -> IndexJob.update(new JobContext(sc, connection, conf), update).execute());
    AuditOptions audit =
        AuditOptions.from(
            OptionValues.empty()
                .with("table", SyncBenchmark.SOURCE)
                .with("live-scan", "true")
                .validate(AuditOptions.declared()));
    timed(
        "audit (live scan)" + suffix,
        jobs,
        () -> new AuditJob(new JobContext(sc, connection, conf), audit).execute());
  }

  /**
   * The stream's own cost, at its full speed: a stream from the last migration's source into its
   * target ({@code stream start --no-copy}), a backlog of generated messages written into the
   * source while its peer is disabled (not measured), then the peer enabled and the backlog
   * drained, timed as {@link #STREAM} until its last row is in the target; with {@code bandwidth}
   * above 0, the peer's bandwidth limited to it ({@link #streamLimited}).
   */
  private static void stream(
      Connection connection,
      int round,
      int messages,
      long bandwidth,
      Map<String, Map<String, Object>> jobs)
      throws Exception {
    String label = bandwidth > 0 ? streamLimited(bandwidth) : STREAM;
    phase = SETUP;
    TableName source = TableName.valueOf(SyncBenchmark.SOURCE);
    TableName target = TableName.valueOf(SyncBenchmark.TARGET);
    KeyMapping mapping = KeyMapping.parse(SyncBenchmark.SOURCE_KEY, SyncBenchmark.TARGET_KEY);
    try (Admin admin = connection.getAdmin();
        Table to = connection.getTable(target)) {
      StreamPeer.stop(admin, STREAM_PEER);
      StreamPeer.add(
          admin,
          admin,
          STREAM_PEER,
          new StreamSettings(
              source, target, SyncBenchmark.SOURCE_KEY, SyncBenchmark.TARGET_KEY, Map.of()),
          false);
      StreamPeer.limit(admin, STREAM_PEER, bandwidth);
      long[] written =
          StreamThroughputBenchmark.backlog(
              connection, source, messages, (bandwidth > 0 ? 200L : 100L) + round);
      byte[] last = mapping.map(StreamThroughputBenchmark.lastRow(written[1]), ColumnValues.NONE);
      timed(
          label,
          jobs,
          () -> {
            StreamPeer.enable(admin, STREAM_PEER);
            while (to.get(new Get(last)).isEmpty()) {
              Thread.sleep(20);
            }
            return null;
          });
      jobs.get(label).put("cells", written[0]);
      StreamPeer.stop(admin, STREAM_PEER);
    }
  }

  /** Runs one job as the phase {@code name}, recording its seconds and the cores it kept busy. */
  private static void timed(
      String name, Map<String, Map<String, Object>> jobs, java.util.concurrent.Callable<?> job)
      throws Exception {
    phase = name;
    CpuUse cpu = CpuUse.start();
    long t0 = System.nanoTime();
    job.call();
    double seconds = (System.nanoTime() - t0) / 1e9;
    phase = SETUP;
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("seconds", RekeyBenchmark.round(seconds));
    cpu.since(seconds)
        .forEach(
            (k, v) -> {
              if (v instanceof Number) {
                f.put(k, v);
              }
            });
    jobs.put(name, f);
  }

  /** Each label's figures, the median over the rounds. */
  static Map<String, Map<String, Object>> medians(List<Map<String, Map<String, Object>>> rounds) {
    Map<String, Map<String, List<Double>>> values = new TreeMap<>();
    for (Map<String, Map<String, Object>> round : rounds) {
      round.forEach(
          (label, f) ->
              f.forEach(
                  (k, v) ->
                      values
                          .computeIfAbsent(label, x -> new LinkedHashMap<>())
                          .computeIfAbsent(k, x -> new ArrayList<>())
                          .add(((Number) v).doubleValue())));
    }
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    if (values.containsKey(IDLE)) {
      out.put(IDLE, null); // idle first: the row every other is read against
    }
    values.forEach(
        (label, f) -> {
          Map<String, Object> m = new LinkedHashMap<>();
          f.forEach((k, v) -> m.put(k, median(v)));
          out.put(label, m);
        });
    return out;
  }

  private static double median(List<Double> v) {
    List<Double> s = new ArrayList<>(v);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /** The foreground table, created and filled once, split into 4 regions. */
  private static TableName foregroundTable(Connection c) throws Exception {
    TableName t = TableName.valueOf(FOREGROUND);
    try (Admin admin = c.getAdmin()) {
      if (admin.tableExists(t)) {
        return t;
      }
      byte[][] splits = new byte[3][];
      for (int i = 1; i <= 3; i++) {
        splits[i - 1] = ForegroundLoad.row(FOREGROUND_ROWS * i / 4);
      }
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(ForegroundLoad.family()))
              .build(),
          splits);
    }
    ForegroundLoad.fill(c, t, FOREGROUND_ROWS, 200);
    try (Admin admin = c.getAdmin()) {
      admin.flush(t);
    }
    return t;
  }

  /** Counts the Spark jobs running, to tell a job's Spark stages from its driver's own work. */
  private static final class JobCounter extends SparkListener {
    @Override
    public void onJobStart(SparkListenerJobStart jobStart) {
      sparkJobs.incrementAndGet();
    }

    @Override
    public void onJobEnd(SparkListenerJobEnd jobEnd) {
      sparkJobs.decrementAndGet();
    }
  }

  private LatencyBenchmark() {}
}
