package io.rekey.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the project's own scripts and the application jar as separate processes, as users do. */
public final class Scripts {
  private Scripts() {}

  /** The project directory (failsafe passes it; the working directory otherwise). */
  public static Path projectDir() {
    return Path.of(System.getProperty("rekey.project.dir", ".")).toAbsolutePath().normalize();
  }

  /** The support-matrix cell under test (failsafe passes it; the default cell otherwise). */
  public static String cell() {
    return System.getProperty("rekey.cell", "spark3.5_2.12-hbase2.5");
  }

  /** The cell's build directory: {@code target}, or {@code target/CELL} for another cell. */
  public static Path targetDir() {
    return Path.of(
        System.getProperty("rekey.target.dir", projectDir().resolve("target").toString()));
  }

  /** A version the build wrote into the cell's {@code cell.properties} (e.g. spark.version). */
  public static String cellVersion(String name) throws IOException {
    java.util.Properties p = new java.util.Properties();
    try (var in = Files.newInputStream(targetDir().resolve("cell.properties"))) {
      p.load(in);
    }
    String v = p.getProperty(name);
    if (v == null) {
      throw new IllegalStateException(name + " is not in " + targetDir() + "/cell.properties");
    }
    return v;
  }

  /** The shaded application jar built by {@code mvn package}. */
  public static Path appJar() {
    Path jar =
        Path.of(
            System.getProperty(
                "rekey.app.jar",
                targetDir().resolve("hbase-rekey-0.1.0-SNAPSHOT-" + cell() + ".jar").toString()));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run the ITs with 'mvn verify'");
    }
    return jar;
  }

  /**
   * The result of a finished process.
   *
   * @param exit its exit code
   * @param output stdout and stderr, interleaved
   */
  public record Finished(int exit, String output) {}

  /** Runs a command in the project directory, never building (REKEY_NO_BUILD=1). */
  public static Finished run(Map<String, String> env, long timeoutSeconds, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(projectDir().toFile());
    pb.redirectErrorStream(true);
    pb.environment().put("REKEY_NO_BUILD", "1");
    // The scripts build and run the cell under test (jobs/lib/common.sh).
    pb.environment().put("REKEY_CELL", cell());
    pb.environment().remove("SPARK_HOME");
    pb.environment().remove("HBASE_CONF_DIR");
    pb.environment().putAll(env);
    Path log = Files.createTempFile("rekey-process", ".log");
    pb.redirectOutput(log.toFile());
    Process process = pb.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          command
              + " did not finish in "
              + timeoutSeconds
              + " s; output:\n"
              + Files.readString(log));
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    return new Finished(process.exitValue(), output);
  }

  /** Spark's runtime classpath, from the same script function the jobs use. */
  public static String sparkRuntimeClasspath() throws IOException, InterruptedException {
    Finished f =
        run(
            Map.of(),
            600,
            List.of(
                "bash",
                "-c",
                "source jobs/lib/common.sh && rekey_spark_classpath > \"$REKEY_TARGET/spark-cp.out\""));
    if (f.exit() != 0) {
      throw new AssertionError("cannot resolve Spark's runtime classpath:\n" + f.output());
    }
    return Files.readString(targetDir().resolve("spark-cp.out")).strip();
  }

  /** The JDK 17 flags the build writes for the scripts. */
  public static List<String> jvmFlags() throws IOException {
    String flags = Files.readString(targetDir().resolve("jvm-flags.txt")).strip();
    return new ArrayList<>(List.of(flags.split("\\s+")));
  }

  /**
   * The first of {@code n} consecutive free ports on this host from {@code from} on: a
   * pseudo-cluster's port base ({@code REKEY_CLUSTER_PORT_BASE}).
   */
  public static int freePortRange(int from, int n) throws IOException {
    for (int start = from; start < 60000; start += 97) {
      boolean free = true;
      for (int p = start; p < start + n && free; p++) {
        try (java.net.ServerSocket s = new java.net.ServerSocket(p)) {
          s.setReuseAddress(true);
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return start;
      }
    }
    throw new IOException("no " + n + " consecutive free ports from " + from);
  }
}
