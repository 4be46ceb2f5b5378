package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.testing.LongTier;
import io.rekey.testing.PseudoCluster;
import io.rekey.testing.Scripts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The whole pipeline as a cluster user runs it: {@code jobs/cluster-local.sh} starts HDFS,
 * ZooKeeper, an HBase master and region server (root dir on that HDFS), a YARN ResourceManager and
 * NodeManager, and a Spark standalone Master and Worker, each in a JVM of its own; every command
 * goes through {@code jobs/hbase-rekey.sh} (spark-submit) with the default staging, which is on
 * HDFS, on the standalone master. The same commands in local mode, at the same time on tables of
 * their own, must give the same counts; the tasks must have run in the Worker's executor JVMs
 * (whose logs hold no stack trace), and the applications carry the job's name. On YARN: an audit in
 * each deploy mode (in cluster mode the driver runs in a NodeManager's container, gets its HBase
 * settings through {@code --files} and writes its result to HDFS), one with dynamic allocation and
 * one through plain spark-submit; each ended SUCCEEDED in one attempt, and the ones meant to fail
 * ended with the tool's line (a job file not shipped, a queue that does not exist or has no room, a
 * container larger than YARN allows). Every command on YARN is {@link SecureClusterIT}'s, on the
 * Kerberized cluster, as an ordinary user.
 *
 * <p>Not part of the default {@code mvn -B verify} (it takes about 9 minutes on its own): {@code
 * mvn -B verify -Plong} runs it alongside the rest of the long tier (concurrently, where JUnit runs
 * in parallel: nothing of it is in the test JVM), as {@code .ci/run} does after the default suite
 * ({@code -Pcluster} runs it alone). Its one test runs past the ITs' default bound of 10 minutes:
 * it has its own.
 */
@LongTier
@Timeout(value = 45, unit = TimeUnit.MINUTES)
@Execution(ExecutionMode.CONCURRENT)
class ClusterPipelineIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";
  private static final String TARGET_KEY = "salt(8) + sender + reverse_ts(ts) + msgid";

  private static final String USER_OPTION = "-Drekey.it.user.option=kept";

  /** Where the pipeline runs; {@code local} last, the counts every other mode must equal. */
  private static final List<String> MODES = List.of("cluster", "local");

  @TempDir static Path dir;
  private static final Map<String, String> env = new HashMap<>();
  private static int base;
  private static Path conf;

  @BeforeAll
  static void startCluster() throws Exception {
    base = Scripts.freePortRange(21000, 20);
    env.putAll(PseudoCluster.env(dir, base));
    env.put("REKEY_WORKER_CORES", "2");
    env.put("REKEY_WORKER_MEMORY", "2g");
    env.put("REKEY_NM_MEMORY_MB", "5120");
    conf = dir.resolve("cluster/conf");
    Scripts.Finished start = cluster("start");
    assertThat(start.exit()).as(start.output()).isZero();
    assertThat(start.output())
        .contains("HDFS up", "HBase up", "YARN up", "the local cluster is up", "spark-worker  pid");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    Scripts.Finished stop = cluster("stop");
    assertThat(stop.exit()).as(stop.output()).isZero();
    assertThat(cluster("status").exit()).isEqualTo(3);
  }

  @Test
  void everyCommandRunsOnTheClusterWithTheCountsOfLocalMode() throws Exception {
    ok(job(null, "generate", "--table", "it:messages", "--rows", "1500", "--seed", "7"));

    Map<String, Map<String, Object>> counts = inEveryModeAtOnce(this::firstHalf);
    yarnApplicationsEndedAsTheirCommands();
    // New messages after the index builds, for the incremental runs; past the 1 s safety lag.
    ok(
        job(
            null,
            "generate",
            "--table",
            "it:messages",
            "--rows",
            "200",
            "--seed",
            "8",
            "--start-time",
            "now",
            "--interval-millis",
            "1",
            "--if-nonempty",
            "append"));
    Thread.sleep(2500);
    Map<String, Map<String, Object>> later = inEveryModeAtOnce(this::secondHalf);
    for (String mode : MODES) {
      counts.get(mode).putAll(later.get(mode));
    }
    for (String mode : MODES) {
      assertThat(counts.get(mode)).as(mode).isEqualTo(counts.get("local"));
    }
    assertThat(counts.get("cluster").get("rekey cells written")).isNotEqualTo(0L);
    assertThat(counts.get("cluster").get("index update entries")).isEqualTo(200L);

    // The tasks ran in the Worker's executors, which logged no stack trace.
    List<Path> executorLogs;
    try (Stream<Path> files = Files.walk(dir.resolve("cluster/spark-work"))) {
      executorLogs = files.filter(p -> p.getFileName().toString().equals("stderr")).toList();
    }
    assertThat(executorLogs).hasSizeGreaterThanOrEqualTo(6);
    Pattern trace = Pattern.compile("(?m)^\\s+at [\\w.$]+\\(|Exception");
    long tasks = 0;
    for (Path log : executorLogs) {
      String text = Files.readString(log);
      assertThat(trace.matcher(text).find()).as(log + ":\n" + text).isFalse();
      String command = text.lines().findFirst().orElse("");
      assertThat(command)
          .as("the executor's command line")
          .contains("\"" + USER_OPTION + "\"", "\"--add-opens=java.base/java.nio=ALL-UNNAMED\"");
      tasks += text.lines().filter(l -> l.contains("Running task")).count();
    }
    assertThat(tasks).isGreaterThan(20);

    // The applications carry the jobs' names in the Spark master's list.
    JsonNode apps =
        JSON.readTree(URI.create("http://127.0.0.1:" + (base + 9) + "/json/").toURL())
            .get("completedapps");
    List<String> names = new ArrayList<>();
    apps.forEach(a -> names.add(a.get("name").asText()));
    assertThat(names)
        .contains(
            "hbase-rekey audit it:messages",
            "hbase-rekey rekey it:messages -> it:cluster_salted",
            "hbase-rekey verify it:messages -> it:cluster_salted",
            "hbase-rekey index build it:messages -> it:cluster_by_sender",
            "hbase-rekey index update it:messages -> it:cluster_by_sender",
            "hbase-rekey index scrutiny it:messages -> it:cluster_by_sender");

    yarnFailuresAreOneLine();
    aStreamRunsOnTheDaemons();
  }

  /**
   * The daemons load the stream's endpoint jar: a stream started with its copy carries writes
   * stamped years ago into the target, and the switch fences the region server and says switch.
   */
  private void aStreamRunsOnTheDaemons() throws Exception {
    List<String> start = new ArrayList<>(List.of("stream"));
    start.addAll(List.of(copy("start", "stream")));
    JsonNode started = ok(job(null, start.toArray(String[]::new)));
    assertThat(started.at("/stream/enabled").asBoolean()).isTrue();
    assertThat(started.at("/copy/verify/matches").asBoolean()).isTrue();
    ok(
        job(
            null,
            "generate",
            "--table",
            "it:messages",
            "--rows",
            "100",
            "--seed",
            "9",
            // Stamped in 2001: no time window would carry them.
            "--start-time",
            "2001-01-01T00:00:00Z",
            "--if-nonempty",
            "append"));
    // The stream ships within seconds; verify (live) records the comparison the switch asks for.
    JsonNode verify = null;
    for (int attempt = 0; attempt < 10; attempt++) {
      Thread.sleep(2_000);
      Scripts.Finished v = job(null, copy("verify", "stream", "--live-scan"));
      if (v.exit() == 0) {
        verify = ok(v);
        break;
      }
    }
    assertThat(verify).as("a live verify of the streamed target matched").isNotNull();
    JsonNode switched = ok(job(null, "stream", "switch", "--target", "it:stream_salted"));
    assertThat(switched.get("switchNow").asBoolean()).isTrue();

    // The other direction: turned around, a write to the new table (stamped in 2001) goes back
    // into the old one under its old key, and the rollback is one more switch.
    JsonNode reversed =
        ok(job(null, "stream", "stop", "--target", "it:stream_salted", "--reverse"));
    assertThat(reversed.get("reverse").asBoolean()).isTrue();
    assertThat(reversed.get("target").asText()).isEqualTo("it:messages");
    byte[] oldKey = Bytes.toBytes("978307200000_rollback_m1");
    byte[] newKey = KeyMapping.parse(SOURCE_KEY, TARGET_KEY).map(oldKey, ColumnValues.NONE);
    try (Connection c = HBaseConnections.open(new HBaseSettings(null, conf));
        Table migrated = c.getTable(TableName.valueOf("it:stream_salted"));
        Table old = c.getTable(TableName.valueOf("it:messages"))) {
      migrated.put(
          new Put(newKey)
              .addColumn(
                  Bytes.toBytes("m"), Bytes.toBytes("body"), 978307200000L, Bytes.toBytes("back")));
      // (The region server reports the write's count within seconds: a switch that reads it
      // arrive refuses as for a writer, and is asked again.)
      Scripts.Finished rollback = null;
      for (int attempt = 0; attempt < 3 && (rollback == null || rollback.exit() != 0); attempt++) {
        rollback = job(null, "stream", "switch", "--target", "it:messages");
      }
      JsonNode rolledBack = ok(rollback);
      assertThat(rolledBack.get("switchNow").asBoolean()).isTrue();
      assertThat(
              old.get(new Get(oldKey).addColumn(Bytes.toBytes("m"), Bytes.toBytes("body")))
                  .getColumnLatestCell(Bytes.toBytes("m"), Bytes.toBytes("body")))
          .as("the new table's write is in the old table at the rollback's switch")
          .isNotNull()
          .satisfies(cell -> assertThat(cell.getTimestamp()).isEqualTo(978307200000L));
    }
    ok(job(null, "stream", "stop", "--target", "it:messages"));
  }

  /**
   * On YARN: an audit in client mode and a verify (its job file on HDFS) in cluster mode through
   * the launcher, an audit with dynamic allocation and one through plain spark-submit, each
   * SUCCEEDED after one attempt with executors in containers.
   */
  private void yarnApplicationsEndedAsTheirCommands() throws Exception {
    JsonNode client =
        ok(job("yarn_client", "audit", "--table", "it:messages", "--out", output("c", "audit-c")));
    assertThat(client.at("/totals/rows").asLong()).isEqualTo(1500L);
    // In cluster mode, a job file on HDFS: the standalone mode's copy, verified again.
    JsonNode inContainer =
        ok(job("yarn_cluster", "verify", "--job-file", jobFileOnHdfs("cluster")));
    assertThat(inContainer.get("matches").asBoolean()).isTrue();
    assertThat(inContainer.get("sourceCells").asLong()).isGreaterThan(0L);
    // Dynamic allocation (shuffle tracking, no external shuffle service): the job sizes its tasks
    // for the most executors it may get, and says so.
    Scripts.Finished dynamic =
        Scripts.run(
            env,
            400,
            List.of(
                "bash",
                "jobs/hbase-rekey.sh",
                "--master",
                "yarn",
                "--conf",
                "spark.yarn.jars=local:" + dir.resolve("cluster/spark-home/jars") + "/*",
                "--conf",
                "spark.dynamicAllocation.enabled=true",
                "--conf",
                "spark.dynamicAllocation.shuffleTracking.enabled=true",
                "--conf",
                "spark.dynamicAllocation.maxExecutors=3",
                "--executor-cores",
                "1",
                "--executor-memory",
                "1g",
                "audit",
                "--table",
                "it:messages",
                "--out",
                dir.resolve("audit-dynamic").toString(),
                "--hbase-conf",
                conf.toString()));
    assertThat(dynamic.exit()).as(dynamic.output()).isZero();
    assertThat(dynamic.output())
        .contains(
            "sizing the job's tasks for 3 cores (dynamic allocation:"
                + " spark.dynamicAllocation.maxExecutors=3 × 1 cores)");
    plainSparkSubmitInClusterMode();

    JsonNode apps = rest("/ws/v1/cluster/apps").at("/apps/app");
    List<String> names = new ArrayList<>();
    for (JsonNode app : apps) {
      names.add(app.get("name").asText());
      assertThat(app.get("finalStatus").asText()).as(app.toString()).isEqualTo("SUCCEEDED");
      assertThat(attempts(app.get("id").asText())).as(app.toString()).isEqualTo(1);
    }
    // In client mode the driver names its application; in cluster mode spark-submit does, before
    // the options are read, and the launcher names it by the command.
    assertThat(names).contains("hbase-rekey audit it:messages", "hbase-rekey verify");
    try (Stream<Path> files = Files.walk(dir.resolve("cluster/yarn/logs"))) {
      assertThat(files.filter(p -> p.getFileName().toString().equals("stderr")).count())
          .as("container logs: ApplicationMasters and executors")
          .isGreaterThan(6);
    }
  }

  /**
   * A cluster-mode command whose job file was not shipped ends FAILED in one attempt, its
   * diagnostics holding the tool's line and exit code, and spark-submit exits non-zero; then the
   * applications YARN refuses or never starts.
   */
  private void yarnFailuresAreOneLine() throws Exception {
    Scripts.Finished failed =
        job("yarn_cluster", "index", "update", "--def", "not-shipped.properties");
    // The launcher ends with the tool's line and exits with its code, as in client mode.
    assertThat(failed.exit()).as(failed.output()).isEqualTo(2);
    assertThat(lastLine(failed))
        .startsWith("error: --def is 'not-shipped.properties' but that file does not exist");
    assertThat(failed.output()).doesNotContain("\tat ");
    JsonNode app = null;
    for (JsonNode a : rest("/ws/v1/cluster/apps").at("/apps/app")) {
      if (a.get("finalStatus").asText().equals("FAILED")) {
        app = a;
      }
    }
    assertThat(app).as(failed.output()).isNotNull();
    assertThat(app.get("diagnostics").asText())
        .contains(
            "error: --def is 'not-shipped.properties' but that file does not exist on this YARN"
                + " container's host",
            "spark-submit --files",
            "(hbase-rekey exit code 2)");
    assertThat(attempts(app.get("id").asText())).isEqualTo(1);

    refusedOrNeverStartedApplicationsAreOneLine();
  }

  /**
   * deploy/README's spark-submit without the launcher, in cluster mode: Spark's SparkSubmit (what
   * {@code $SPARK_HOME/bin/spark-submit} runs) with what the launcher would add, and the result on
   * HDFS.
   */
  private void plainSparkSubmitInClusterMode() throws Exception {
    Path jar;
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      jar =
          files
              .filter(p -> p.getFileName().toString().matches("hbase-rekey-.*-hbase[0-9.]+\\.jar"))
              .findFirst()
              .orElseThrow();
    }
    String flags = Files.readString(Path.of("target/jvm-flags.txt")).strip();
    String json = output("yarn_cluster", "plain-spark-submit-audit.json");
    List<String> line =
        List.of(
            "java",
            "-cp",
            conf + ":" + dir.resolve("cluster/spark-home/jars") + "/*",
            "org.apache.spark.deploy.SparkSubmit",
            "--master",
            "yarn",
            "--deploy-mode",
            "cluster",
            "--conf",
            "spark.yarn.jars=local:" + dir.resolve("cluster/spark-home/jars") + "/*",
            "--conf",
            "spark.driver.defaultJavaOptions=" + flags,
            "--conf",
            "spark.executor.defaultJavaOptions=" + flags,
            "--conf",
            "spark.yarn.maxAppAttempts=1",
            "--conf",
            "spark.yarn.am.memory=512m",
            "--driver-memory",
            "1g",
            "--executor-memory",
            "1g",
            "--num-executors",
            "2",
            "--files",
            conf.resolve("hbase-site.xml").toString(),
            "--class",
            "io.rekey.cli.Main",
            jar.toString(),
            "audit",
            "--table",
            "it:messages",
            "--json",
            json);
    Scripts.Finished plain = Scripts.run(env, 400, line);
    assertThat(plain.exit()).as(plain.output()).isZero();
    JsonNode audit = ok(new Scripts.Finished(0, "@json " + json));
    assertThat(audit.at("/totals/rows").asLong()).isEqualTo(1500L);
  }

  /**
   * A queue YARN does not have, a queue with no room (the application waits ACCEPTED until the
   * bound, then is killed), an ApplicationMaster larger than YARN allows and one whose JVM cannot
   * start (explained by its own first error, not by a guess about options): in both deploy modes
   * one line, the last, no stack trace, a non-zero exit, and nothing left running.
   */
  private void refusedOrNeverStartedApplicationsAreOneLine() throws Exception {
    for (String mode : List.of("client", "cluster")) {
      Scripts.Finished unknownQueue = refused(mode, "--queue", "no_such_queue");
      assertThat(lastLine(unknownQueue))
          .as(unknownQueue.output())
          .startsWith("error: ")
          .contains("no_such_queue");

      // The pseudo-cluster's queue "tiny" is smaller than any container: the application waits.
      Scripts.Finished neverStarted =
          refused(mode, "--queue", "tiny", "--conf", "spark.rekey.yarn.admissionTimeout=20s");
      assertThat(lastLine(neverStarted))
          .as(neverStarted.output())
          .startsWith("error: ")
          .contains("YARN did not start application application_", "so it was killed");

      Scripts.Finished tooLarge =
          refused(
              mode,
              "--conf",
              (mode.equals("client") ? "spark.yarn.am.memory" : "spark.driver.memory") + "=8g");
      assertThat(tooLarge.output())
          .as(tooLarge.output())
          .contains("above the max threshold")
          .doesNotContain("\tat ");

      Scripts.Finished amFails =
          refused(
              mode,
              "--conf",
              "spark.yarn.maxAppAttempts=1",
              "--conf",
              // A Java agent the AM's host does not have, set through the AM's environment (the
              // test's own spark.yarn.am.extraJavaOptions stay as they are).
              "spark.yarn.appMasterEnv.JAVA_TOOL_OPTIONS=-javaagent:/no/such/agent.jar");
      assertThat(lastLine(amFails))
          .as(amFails.output())
          .startsWith("error: ")
          .contains(
              "the ApplicationMaster of application_",
              "before it registered: Error opening zip file or JAR manifest missing :"
                  + " /no/such/agent.jar",
              "yarn logs -applicationId application_")
          .doesNotContain("--executor-memory");
    }
    for (JsonNode app : rest("/ws/v1/cluster/apps").at("/apps/app")) {
      assertThat(app.get("state").asText()).as(app.toString()).isIn("FINISHED", "FAILED", "KILLED");
      if (app.get("state").asText().equals("KILLED")) {
        assertThat(app.get("diagnostics").asText()).contains("hbase-rekey: YARN did not start");
      }
    }
  }

  /** An audit on YARN in {@code mode} with {@code options}, which must fail. */
  private static Scripts.Finished refused(String mode, String... options) throws Exception {
    List<String> line =
        new ArrayList<>(
            List.of(
                "bash",
                "jobs/hbase-rekey.sh",
                "--master",
                "yarn",
                "--deploy-mode",
                mode,
                "--conf",
                "spark.yarn.jars=local:" + dir.resolve("cluster/spark-home/jars") + "/*"));
    line.addAll(List.of(options));
    line.addAll(List.of("audit", "--table", "it:messages"));
    if (mode.equals("client")) {
      line.addAll(List.of("--hbase-conf", conf.toString()));
    }
    Scripts.Finished run = Scripts.run(env, 300, line);
    assertThat(run.exit()).as(run.output()).isEqualTo(1);
    assertThat(run.output()).doesNotContain("\tat ");
    return run;
  }

  /** The run's last line of output ({@link #job}'s note of the result's path aside). */
  private static String lastLine(Scripts.Finished run) {
    List<String> lines =
        run.output().lines().filter(l -> !l.isBlank() && !l.startsWith("@json ")).toList();
    return lines.get(lines.size() - 1);
  }

  private static JsonNode rest(String path) throws IOException {
    return JSON.readTree(URI.create("http://127.0.0.1:" + (base + 16) + path).toURL());
  }

  private static int attempts(String application) throws IOException {
    return rest("/ws/v1/cluster/apps/" + application + "/appattempts")
        .at("/appAttempts/appAttempt")
        .size();
  }

  /** Half of the pipeline in one mode, on that mode's tables; its counts. */
  private interface Half {
    Map<String, Object> run(String mode) throws Exception;
  }

  /**
   * {@code half} in each mode, the modes at once: their tables are their own, and one job alone
   * leaves the 2 cores idle between its phases (JVM start, snapshot, bulk load).
   */
  private static Map<String, Map<String, Object>> inEveryModeAtOnce(Half half) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(MODES.size());
    try {
      Map<String, Future<Map<String, Object>>> running = new LinkedHashMap<>();
      for (String mode : MODES) {
        running.put(mode, pool.submit(() -> half.run(mode)));
      }
      Map<String, Map<String, Object>> counts = new LinkedHashMap<>();
      for (Map.Entry<String, Future<Map<String, Object>>> mode : running.entrySet()) {
        counts.put(mode.getKey(), mode.getValue().get());
      }
      return counts;
    } finally {
      pool.shutdownNow();
    }
  }

  /** audit, rekey (which verifies), verify and index build; their counts. */
  private Map<String, Object> firstHalf(String mode) throws Exception {
    Map<String, Object> counts = new LinkedHashMap<>();
    JsonNode audit =
        ok(job(mode, "audit", "--table", "it:messages", "--out", output(mode, "audit-" + mode)));
    counts.put("audit rows", audit.at("/totals/rows").asLong());
    counts.put("audit cells", audit.at("/totals/cells").asLong());
    JsonNode rekey = ok(job(mode, copy("rekey", mode, "--max-rejects", "0")));
    assertThat(rekey.at("/plan/runDir").asText())
        .as("default staging on the cluster's HDFS, per user")
        .startsWith(
            mode.equals("local")
                ? "hdfs://"
                : "hdfs://127.0.0.1:" + base + "/user/" + System.getProperty("user.name"));
    counts.put("rekey cells read", rekey.get("cellsRead").asLong());
    counts.put("rekey cells written", rekey.get("cellsWritten").asLong());
    counts.put("rekey verify", rekey.at("/verify/matches").asBoolean());
    JsonNode verify = ok(job(mode, copy("verify", mode)));
    counts.put("verify", verify.get("matches").asBoolean());
    counts.put("verify cells", verify.get("sourceCells").asLong());
    JsonNode build = ok(job(mode, "index", "build", "--def", definition(mode)));
    counts.put("index build entries", build.at("/counts/entries").asLong());
    counts.put("index build stored", build.at("/stored/stored").asLong());
    return counts;
  }

  /** index update, scrutiny and lookup after more messages came; their counts. */
  private Map<String, Object> secondHalf(String mode) throws Exception {
    Map<String, Object> counts = new LinkedHashMap<>();
    String def = definition(mode);
    JsonNode update = ok(job(mode, "index", "update", "--def", def));
    counts.put("index update entries", update.at("/counts/entries").asLong());
    JsonNode scrutiny = ok(job(mode, "index", "scrutiny", "--def", def));
    for (String field : List.of("sourceRows", "indexEntries", "valid", "missing", "orphan")) {
      counts.put("scrutiny " + field, scrutiny.get(field).asLong());
    }
    JsonNode lookup =
        ok(job(mode, "index", "lookup", "--def", def, "--value", "user00000", "--check-source"));
    counts.put("lookup entries", lookup.get("entries").asLong());
    return counts;
  }

  /** A verify job file for {@code mode}'s copy, on the cluster's HDFS: its hdfs:// URI. */
  private static String jobFileOnHdfs(String mode) throws IOException {
    String uri = "hdfs://127.0.0.1:" + base + "/it/jobs/verify-" + mode + ".properties";
    String text =
        String.join(
            "\n",
            "command = verify",
            "source = it:messages",
            "target = it:" + mode + "_salted",
            "source-key = " + SOURCE_KEY,
            "target-key = " + TARGET_KEY,
            "");
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
    try (java.io.OutputStream out = p.getFileSystem(hadoopConf()).create(p, true)) {
      out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return uri;
  }

  /** {@code command} from it:messages to it:MODE_salted through the test's key mapping. */
  private static String[] copy(String command, String mode, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                command,
                "--source",
                "it:messages",
                "--target",
                "it:" + mode + "_salted",
                "--source-key",
                SOURCE_KEY,
                "--target-key",
                TARGET_KEY));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  /**
   * The mode's index definition file: its path, or in YARN cluster mode its file name (the file
   * goes to the driver's container with --files, see {@link #job}).
   */
  private static String definition(String mode) throws IOException {
    Path def =
        PseudoCluster.bySender(
            dir.resolve(mode + "-by-sender.properties"),
            "it:messages",
            "it:" + mode + "_by_sender");
    return mode.equals("yarn_cluster") ? def.getFileName().toString() : def.toString();
  }

  /** Where a command writes a result: on HDFS when its driver runs in a YARN container. */
  private static String output(String mode, String name) {
    return mode.equals("yarn_cluster")
        ? "hdfs://127.0.0.1:" + base + "/it/results/" + name
        : dir.resolve(name).toString();
  }

  /**
   * One command through the launcher in {@code mode}: {@code cluster} (the standalone master),
   * {@code yarn_client}, {@code yarn_cluster}, {@code local}, or null (no master named).
   */
  private static Scripts.Finished job(String mode, String... command) throws Exception {
    List<String> line = new ArrayList<>(List.of("bash", "jobs/hbase-rekey.sh"));
    boolean inContainer = "yarn_cluster".equals(mode);
    if (mode != null && mode.equals("local")) {
      line.addAll(List.of("--master", "local[2]"));
    } else if (mode != null) {
      if (mode.equals("cluster")) {
        line.addAll(List.of("--master", "spark://127.0.0.1:" + (base + 8)));
      } else {
        line.addAll(
            List.of(
                "--master",
                "yarn",
                "--deploy-mode",
                inContainer ? "cluster" : "client",
                "--conf",
                "spark.yarn.jars=local:" + dir.resolve("cluster/spark-home/jars") + "/*",
                "--num-executors",
                "2",
                "--executor-cores",
                "1",
                "--executor-memory",
                "1g",
                "--driver-memory",
                "1g",
                "--conf",
                "spark.yarn.am.memory=512m"));
      }
      line.addAll(List.of("--conf", "spark.ui.enabled=false"));
      // A user's own executor option, which the launcher's JDK flags must not replace.
      line.addAll(List.of("--conf", "spark.executor.extraJavaOptions=" + USER_OPTION));
    }
    if (inContainer) {
      // The driver's container gets the HBase settings (on its classpath) and the job files.
      List<String> files = new ArrayList<>(List.of(conf.resolve("hbase-site.xml").toString()));
      for (int i = 0; i + 1 < command.length; i++) {
        if (command[i].equals("--def") && Files.exists(dir.resolve(command[i + 1]))) {
          files.add(dir.resolve(command[i + 1]).toString());
        }
      }
      line.addAll(List.of("--files", String.join(",", files)));
    }
    line.addAll(List.of(command));
    String json =
        output(inContainer ? mode : "local", "result-" + java.util.UUID.randomUUID() + ".json");
    if (!inContainer) {
      line.addAll(List.of("--hbase-conf", conf.toString()));
    }
    line.addAll(List.of("--json", json));
    Scripts.Finished f = Scripts.run(env, 400, line);
    return PseudoCluster.withResult(f, json);
  }

  private static JsonNode ok(Scripts.Finished run) throws IOException {
    assertThat(run.exit()).as(run.output()).isZero();
    String path = PseudoCluster.resultPath(run);
    if (!path.startsWith("hdfs://")) {
      return JSON.readTree(Path.of(path).toFile());
    }
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
    try (java.io.InputStream in = p.getFileSystem(hadoopConf()).open(p)) {
      return JSON.readTree(in);
    }
  }

  private static org.apache.hadoop.conf.Configuration hadoopConf() {
    return new org.apache.hadoop.conf.Configuration();
  }

  private static Scripts.Finished cluster(String action) throws Exception {
    return Scripts.run(env, 300, List.of("bash", "jobs/cluster-local.sh", action));
  }
}
