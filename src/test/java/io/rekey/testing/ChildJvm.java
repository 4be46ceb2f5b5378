package io.rekey.testing;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Command lines for JVMs a test starts: this JVM's java, classpath and JDK 17 flags. */
public final class ChildJvm {
  private ChildJvm() {}

  /** The JDK 17 flags Spark and HBase need, as this JVM was started with them. */
  public static List<String> jdkFlags() {
    List<String> flags = new ArrayList<>();
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-")
          || a.startsWith("-Djdk.")
          || a.contains("tryReflectionSetAccess")) {
        flags.add(a);
      }
    }
    return flags;
  }

  /** This JVM's classpath: the project's classes, the test classes and every dependency. */
  public static String classPath() {
    return System.getProperty("java.class.path");
  }

  /**
   * Starts the CLI ({@code io.rekey.cli.Main ARGS}) in a JVM of its own with Spark {@code
   * local[2]}, its output (both streams) to {@code log}.
   */
  public static Process localCli(List<String> args, java.nio.file.Path log)
      throws java.io.IOException {
    return new ProcessBuilder(
            command(
                "1g",
                Map.of(
                    "spark.master", "local[2]",
                    "spark.ui.enabled", "false",
                    "spark.driver.host", "127.0.0.1"),
                "io.rekey.cli.Main",
                args))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** {@code java -XmxHEAP FLAGS -Dk=v... -cp CP MAIN ARGS}. */
  public static List<String> command(
      String heap, Map<String, String> properties, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-Xmx" + heap);
    cmd.addAll(jdkFlags());
    properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }
}
