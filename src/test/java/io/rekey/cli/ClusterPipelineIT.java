package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rekey.testing.Scripts;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline as a cluster user runs it: {@code jobs/cluster-local.sh} starts HDFS,
 * ZooKeeper, an HBase master and region server (root dir on that HDFS) and a Spark standalone
 * Master and Worker, each in a JVM of its own; every command goes through {@code
 * jobs/hbase-rekey.sh --master spark://...} (spark-submit, client mode) with the default staging,
 * which is on HDFS. The same commands in local mode, on tables of their own, must give the same
 * counts; the tasks must have run in the Worker's executor JVMs, whose logs hold no stack trace;
 * the applications carry the job's name.
 *
 * <p>Not part of the default {@code mvn -B verify} (it would take the suite past 20 minutes):
 * {@code mvn -B verify -Pcluster} runs it, as {@code .ci/run} does after the default suite.
 */
class ClusterPipelineIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";
  private static final String TARGET_KEY = "salt(8) + sender + reverse_ts(ts) + msgid";

  private static final String USER_OPTION = "-Drekey.it.user.option=kept";

  @TempDir static Path dir;
  private static final Map<String, String> env = new HashMap<>();
  private static int base;
  private static Path conf;

  @BeforeAll
  static void startCluster() throws Exception {
    base = freePortRange(12);
    env.put("REKEY_CLUSTER_DIR", dir.resolve("cluster").toString());
    env.put("REKEY_CLUSTER_PORT_BASE", Integer.toString(base));
    env.put("REKEY_VAR", dir.resolve("var").toString());
    env.put("REKEY_WORKER_CORES", "2");
    env.put("REKEY_WORKER_MEMORY", "2g");
    env.put("REKEY_HBASE_HEAP", "768m");
    // The driver binds where the Worker on 127.0.0.1 reaches it.
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    conf = dir.resolve("cluster/conf");
    Scripts.Finished start = cluster("start");
    assertThat(start.exit()).as(start.output()).isZero();
    assertThat(start.output())
        .contains("HDFS up", "HBase up", "the local cluster is up", "spark-worker  pid");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    Scripts.Finished stop = cluster("stop");
    assertThat(stop.exit()).as(stop.output()).isZero();
    assertThat(cluster("status").exit()).isEqualTo(3);
  }

  @Test
  void everyCommandRunsOnTheClusterWithTheCountsOfLocalMode() throws Exception {
    String master = "spark://127.0.0.1:" + (base + 8);
    ok(job(null, "generate", "--table", "it:messages", "--rows", "1500", "--seed", "7"));

    Map<String, Map<String, Object>> counts = new LinkedHashMap<>();
    for (String mode : List.of("cluster", "local")) {
      counts.put(mode, firstHalf(mode, mode.equals("cluster") ? master : "local[2]"));
    }
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
    for (String mode : List.of("cluster", "local")) {
      counts.get(mode).putAll(secondHalf(mode, mode.equals("cluster") ? master : "local[2]"));
    }
    assertThat(counts.get("cluster")).isEqualTo(counts.get("local"));
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
  }

  /** audit, rekey (which verifies), verify and index build; their counts. */
  private Map<String, Object> firstHalf(String mode, String master) throws Exception {
    Map<String, Object> counts = new LinkedHashMap<>();
    JsonNode audit =
        ok(
            job(
                master,
                "audit",
                "--table",
                "it:messages",
                "--out",
                dir.resolve("audit-" + mode).toString()));
    counts.put("audit rows", audit.at("/totals/rows").asLong());
    counts.put("audit cells", audit.at("/totals/cells").asLong());
    JsonNode rekey = ok(job(master, copy("rekey", mode, "--max-rejects", "0")));
    assertThat(rekey.at("/plan/runDir").asText())
        .as("default staging on the cluster's HDFS, per user")
        .startsWith(
            mode.equals("cluster")
                ? "hdfs://127.0.0.1:" + base + "/user/" + System.getProperty("user.name")
                : "hdfs://");
    counts.put("rekey cells read", rekey.get("cellsRead").asLong());
    counts.put("rekey cells written", rekey.get("cellsWritten").asLong());
    counts.put("rekey verify", rekey.at("/verify/matches").asBoolean());
    JsonNode verify = ok(job(master, copy("verify", mode)));
    counts.put("verify", verify.get("matches").asBoolean());
    counts.put("verify cells", verify.get("sourceCells").asLong());
    JsonNode build = ok(job(master, "index", "build", "--def", definition(mode).toString()));
    counts.put("index build entries", build.at("/counts/entries").asLong());
    counts.put("index build stored", build.at("/stored/stored").asLong());
    return counts;
  }

  /** index update, scrutiny and lookup after more messages came; their counts. */
  private Map<String, Object> secondHalf(String mode, String master) throws Exception {
    Map<String, Object> counts = new LinkedHashMap<>();
    String def = definition(mode).toString();
    JsonNode update = ok(job(master, "index", "update", "--def", def));
    counts.put("index update entries", update.at("/counts/entries").asLong());
    JsonNode scrutiny = ok(job(master, "index", "scrutiny", "--def", def));
    for (String field : List.of("sourceRows", "indexEntries", "valid", "missing", "orphan")) {
      counts.put("scrutiny " + field, scrutiny.get(field).asLong());
    }
    JsonNode lookup =
        ok(job(master, "index", "lookup", "--def", def, "--value", "user00000", "--check-source"));
    counts.put("lookup entries", lookup.get("entries").asLong());
    return counts;
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

  private static Path definition(String mode) throws IOException {
    Path def = dir.resolve(mode + "-by-sender.properties");
    Files.writeString(
        def,
        String.join(
            "\n",
            "source = it:messages",
            "column = m:sender",
            "index-key = value + reverse_ts(ts) + key",
            "covered = m:subject ; m:recipient",
            "index-table = it:" + mode + "_by_sender",
            "index-family = i",
            "safety-lag = 1",
            "allow-short-lag = true",
            ""));
    return def;
  }

  /** One command through the launcher; {@code master} null runs it without naming one. */
  private static Scripts.Finished job(String master, String... command) throws Exception {
    List<String> line = new ArrayList<>(List.of("bash", "jobs/hbase-rekey.sh"));
    if (master != null) {
      line.addAll(List.of("--master", master, "--conf", "spark.ui.enabled=false"));
      // A user's own executor option, which the launcher's JDK flags must not replace.
      line.addAll(List.of("--conf", "spark.executor.extraJavaOptions=" + USER_OPTION));
    }
    line.addAll(List.of(command));
    Path json = Files.createTempFile(dir, "result", ".json");
    line.addAll(List.of("--hbase-conf", conf.toString(), "--json", json.toString()));
    Scripts.Finished f = Scripts.run(env, 400, line);
    return new Scripts.Finished(f.exit(), f.output() + "\n@json " + json);
  }

  private static JsonNode ok(Scripts.Finished run) throws IOException {
    assertThat(run.exit()).as(run.output()).isZero();
    String path = run.output().substring(run.output().lastIndexOf("@json ") + 6).strip();
    return JSON.readTree(Path.of(path).toFile());
  }

  private static Scripts.Finished cluster(String action) throws Exception {
    return Scripts.run(env, 300, List.of("bash", "jobs/cluster-local.sh", action));
  }

  /** The first of {@code n} consecutive free ports. */
  private static int freePortRange(int n) throws IOException {
    for (int start = 21000; start < 60000; start += 97) {
      boolean free = true;
      for (int p = start; p < start + n && free; p++) {
        try (ServerSocket s = new ServerSocket(p)) {
          s.setReuseAddress(true);
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return start;
      }
    }
    throw new IOException("no " + n + " consecutive free ports");
  }
}
