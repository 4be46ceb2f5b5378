package io.rekey.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the tests that start {@code jobs/cluster-local.sh} share: the environment that puts a
 * pseudo-cluster of their own in a temporary directory on free ports, and the index definition
 * their index commands use.
 */
public final class PseudoCluster {
  private PseudoCluster() {}

  /**
   * The JIT setting of the tests' Spark JVMs (drivers, ApplicationMasters, executors) and of their
   * cluster's daemons: each lives seconds (the daemons minutes) over a few thousand rows, where
   * C2's compiling costs more CPU than it wins back: with C1 alone a client-mode audit of 1,500
   * rows on YARN took 31 CPU-seconds instead of 50.
   */
  public static final String SHORT_LIVED_JVM = "-XX:TieredStopAtLevel=1";

  /**
   * The environment of a cluster in {@code dir/cluster} on ports from {@code base}, its daemons
   * sized small, with spark-submit pointed at its YARN and its driver bound where the daemons on
   * 127.0.0.1 reach it, and the launcher giving every Spark JVM {@link #SHORT_LIVED_JVM} (through
   * the default Java options, which the launcher and a test's own options add to), as the script
   * gives its daemons.
   */
  public static Map<String, String> env(Path dir, int base) {
    Map<String, String> env = new HashMap<>();
    env.put("REKEY_CLUSTER_DIR", dir.resolve("cluster").toString());
    env.put("REKEY_CLUSTER_PORT_BASE", Integer.toString(base));
    env.put("REKEY_VAR", dir.resolve("var").toString());
    env.put("REKEY_HBASE_HEAP", "768m");
    env.put("REKEY_DAEMON_OPTS", SHORT_LIVED_JVM);
    env.put("HADOOP_CONF_DIR", dir.resolve("cluster/conf").toString());
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    env.put(
        "REKEY_SPARK_OPTS",
        String.join(
            " ",
            "--conf spark.driver.defaultJavaOptions=" + SHORT_LIVED_JVM,
            "--conf spark.executor.defaultJavaOptions=" + SHORT_LIVED_JVM,
            "--conf spark.yarn.am.extraJavaOptions=" + SHORT_LIVED_JVM));
    return env;
  }

  /**
   * Writes {@code file}: an index of {@code source} by sender into {@code indexTable}, covering the
   * subject and recipient, read a second after the writes; {@code more} are further lines.
   */
  public static Path bySender(Path file, String source, String indexTable, String... more)
      throws IOException {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "source = " + source,
                "column = m:sender",
                "index-key = value + reverse_ts(ts) + key",
                "covered = m:subject ; m:recipient",
                "index-table = " + indexTable,
                "index-family = i",
                "safety-lag = 1",
                "allow-short-lag = true"));
    lines.addAll(List.of(more));
    return Files.writeString(file, String.join("\n", lines) + "\n");
  }

  /** {@code run}, noting where its JSON result went ({@code --json}), for {@link #resultPath}. */
  public static Scripts.Finished withResult(Scripts.Finished run, String json) {
    return new Scripts.Finished(run.exit(), run.output() + "\n@json " + json);
  }

  /** Where the JSON result of a run of {@link #withResult} went: a local path or an hdfs: URI. */
  public static String resultPath(Scripts.Finished run) {
    return run.output().substring(run.output().lastIndexOf("@json ") + 6).strip();
  }
}
