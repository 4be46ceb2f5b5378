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

  /** The shaded application jar built by {@code mvn package}. */
  public static Path appJar() {
    Path jar =
        Path.of(
            System.getProperty(
                "rekey.app.jar",
                projectDir().resolve("target/hbase-rekey-0.1.0-SNAPSHOT.jar").toString()));
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
                "source jobs/lib/common.sh && rekey_spark_classpath > target/spark-cp.out"));
    if (f.exit() != 0) {
      throw new AssertionError("cannot resolve Spark's runtime classpath:\n" + f.output());
    }
    return Files.readString(projectDir().resolve("target/spark-cp.out")).strip();
  }

  /** The JDK 17 flags the build writes for the scripts. */
  public static List<String> jvmFlags() throws IOException {
    String flags = Files.readString(projectDir().resolve("target/jvm-flags.txt")).strip();
    return new ArrayList<>(List.of(flags.split("\\s+")));
  }
}
