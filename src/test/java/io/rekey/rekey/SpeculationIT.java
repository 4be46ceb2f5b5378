package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.messages;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.report.RekeyText;
import io.rekey.spark.JobContext;
import io.rekey.spark.SparkSessions;
import io.rekey.testing.ChildJvm;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SlowFirstWriterAttempt;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spark.speculation} for real: a Spark standalone Master and two Workers on two loopback
 * addresses (Spark never runs a speculative copy on the host of the attempt it copies, and local
 * mode never speculates), executors in the Workers' own JVMs, the job's driver in a JVM of its own
 * ({@link Driver}: the rekey job as the command runs it, given the fault). The first attempt of
 * writer partition 0 stalls with its files complete ({@link SlowFirstWriterAttempt}); its copy
 * finishes first. Both attempts wrote whole files; the target must hold every cell once.
 */
@LongTier
class SpeculationIT extends OnMiniCluster {
  @TempDir Path dir;
  private final List<Process> cluster = new ArrayList<>();

  @AfterEach
  void stopCluster() {
    for (Process p : cluster) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private Process daemon(String name, String ip, String mainClass, List<String> args)
      throws Exception {
    Path sparkHome = Files.createDirectories(dir.resolve("spark-home/jars"));
    ProcessBuilder pb =
        new ProcessBuilder(ChildJvm.command("512m", Map.of(), mainClass, args))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".log").toFile());
    // What Spark's own start scripts set: where it lives (an empty jars/ dir: the classes come
    // from the application's classpath) and its Scala version, and the address to bind.
    pb.environment().put("SPARK_HOME", sparkHome.getParent().toString());
    pb.environment().put("SPARK_SCALA_VERSION", "2.12");
    pb.environment().put("SPARK_LOCAL_IP", ip);
    Process p = pb.start();
    cluster.add(p);
    return p;
  }

  @Test
  void aSpeculativeCopyAndTheAttemptItCopiedBothWriteWholeFilesAndEachCellIsStoredOnce()
      throws Exception {
    TableName source = messages("sp_src", 1500);
    int port = freePort();
    String master = "spark://127.0.0.1:" + port;
    daemon(
        "master",
        "127.0.0.1",
        "org.apache.spark.deploy.master.Master",
        List.of("--host", "127.0.0.1", "--port", "" + port, "--webui-port", "" + freePort()));
    for (String ip : List.of("127.0.0.1", "127.0.0.2")) {
      daemon(
          "worker-" + ip,
          ip,
          "org.apache.spark.deploy.worker.Worker",
          List.of(
              master,
              "--host",
              ip,
              "--cores",
              "1",
              "--memory",
              "1g",
              "--webui-port",
              "" + freePort(),
              "--work-dir",
              dir.resolve("work-" + ip).toString()));
    }
    Path markers = dir.resolve("markers");
    Map<String, String> spark = new LinkedHashMap<>();
    spark.put("spark.master", master);
    spark.put("spark.driver.host", "127.0.0.1");
    spark.put("spark.ui.enabled", "false");
    spark.put("spark.cores.max", "2");
    // Start only once both executors are there, so the copy has another host to run on.
    spark.put("spark.scheduler.minRegisteredResourcesRatio", "1.0");
    spark.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "120s");
    spark.put("spark.executor.memory", "768m");
    spark.put("spark.executor.extraClassPath", ChildJvm.classPath());
    spark.put("spark.executor.extraJavaOptions", String.join(" ", ChildJvm.jdkFlags()));
    spark.put("spark.speculation", "true");
    spark.put("spark.speculation.interval", "200ms");
    spark.put("spark.speculation.quantile", "0.25");
    spark.put("spark.speculation.multiplier", "1.5");
    spark.put("spark.speculation.minTaskRuntime", "2s");
    spark.put("spark.speculation.efficiency.enabled", "false");
    Configuration c = MiniHBase.util().getConfiguration();
    List<String> args =
        List.of(
            MiniHBase.zkQuorum(),
            c.get("hbase.rootdir"),
            c.get("fs.defaultFS"),
            markers.toString(),
            "sp_src",
            "sp_dst");
    Process driver =
        new ProcessBuilder(ChildJvm.command("1g", spark, Driver.class.getName(), args))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("driver.log").toFile())
            .start();
    cluster.add(driver);
    assertThat(driver.waitFor(400, TimeUnit.SECONDS)).isTrue();
    String out = Files.readString(dir.resolve("driver.log"));
    assertThat(driver.exitValue()).as(out).isZero();

    // Both attempts of partition 0 reached the end of their files: the stalled first one and the
    // speculative copy, which ran on the other host and was the one committed.
    assertThat(markers.resolve("attempt-0-0")).as(out).exists();
    assertThat(markers.resolve("attempt-0-1")).as(out).exists();
    DriverKillIT.assertCopiedExactlyOnce(source, TableName.valueOf("sp_dst"), out);
  }

  /**
   * The rekey command's job in a driver JVM of its own, with {@link SlowFirstWriterAttempt} as its
   * faults: arguments are the quorum, HBase's root directory and filesystem, the markers directory,
   * the source and the target. Prints what the command prints; exits 1 on failure.
   */
  static final class Driver {
    public static void main(String[] args) throws Exception {
      HBaseSettings hbase =
          new HBaseSettings(
              args[0],
              null,
              Map.of(
                  "hbase.rootdir", args[1], "fs.defaultFS", args[2], "hbase.client.pause", "100"));
      RekeyOptions options =
          RekeyOptions.builder()
              .set(RekeyOptions.SOURCE, args[4])
              .set(RekeyOptions.TARGET, args[5])
              .set(RekeyOptions.SOURCE_KEY, DriverKillIT.SOURCE_KEY)
              .set(RekeyOptions.TARGET_KEY, DriverKillIT.TARGET_KEY)
              .set(RekeyOptions.TASKS_PER_REGION, 2L)
              .build();
      SparkSession spark = SparkSessions.getOrCreate("rekey", hbase.sparkTokenSettings());
      try (Connection connection = HBaseConnections.open(hbase)) {
        JobContext job =
            new JobContext(
                    JavaSparkContext.fromSparkContext(spark.sparkContext()),
                    connection,
                    hbase.toConfiguration())
                .withFaults(new SlowFirstWriterAttempt(Path.of(args[3])));
        RekeyResult result = new RekeyJob(job, options, RekeyJob.plan(job, options)).execute();
        System.out.print(RekeyText.result(result));
      } catch (RuntimeException e) {
        e.printStackTrace();
        System.exit(1);
      } finally {
        spark.stop();
      }
    }
  }
}
