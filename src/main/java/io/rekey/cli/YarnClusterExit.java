package io.rekey.cli;

import io.rekey.common.DeployMode;
import io.rekey.spark.SparkSessions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.spark.sql.SparkSession;

/**
 * How a command ends when its driver runs inside YARN's ApplicationMaster ({@code spark-submit
 * --master yarn --deploy-mode cluster}). There, a JVM exit before {@code main} returns is an early
 * exit: the application is reported FAILED and, but on its last attempt, started again. So {@code
 * main} returns when the command succeeded (the application ends SUCCEEDED) and otherwise throws
 * {@link CommandFailed}, whose message is the command's error line and exit code: YARN keeps it in
 * the application's diagnostics, and the ApplicationMaster ends FAILED.
 */
final class YarnClusterExit {
  private YarnClusterExit() {}

  /** Whether this JVM is a YARN cluster-mode driver ({@link DeployMode}). */
  static boolean applies(Properties system) {
    return DeployMode.yarnClusterDriver(system);
  }

  /**
   * Makes sure a Spark context exists, creating one named {@code name} when the command made none
   * (a lookup, a refused command line). The ApplicationMaster registers with YARN only once the
   * driver has one; unregistered, it cannot report the final status and the tool's line, and YARN
   * sees only a container that exited.
   */
  static void registerWithYarn(String name) {
    if (SparkSession.getDefaultSession().isEmpty()) {
      SparkSessions.getOrCreate(name);
    }
  }

  /** {@code PROGRAM COMMAND [SUBCOMMAND]}: the words before the first option. */
  static String applicationName(String program, String[] args) {
    StringBuilder name = new StringBuilder(program);
    for (String a : args) {
      if (a.startsWith("-")) {
        break;
      }
      name.append(' ').append(a);
    }
    return name.toString();
  }

  /** A command that did not succeed, for the ApplicationMaster to report. */
  static final class CommandFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CommandFailed(ExitCode code, String errorLine) {
      // No stack trace: the diagnostics get the line, not this class's frames.
      super(
          (errorLine == null ? "the command failed" : errorLine)
              + " (hbase-rekey exit code "
              + code.code()
              + ")",
          null,
          false,
          false);
    }
  }

  /**
   * A stream that writes through to {@code to} and keeps the first line starting with {@code error:
   * }, the command's one-line message.
   */
  static final class ErrorLine extends PrintStream {
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private String first;

    ErrorLine(PrintStream to) {
      super(to, true, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
      super.write(b);
      remember(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) {
      super.write(buf, off, len);
      remember(buf, off, len);
    }

    private void remember(byte[] buf, int off, int len) {
      for (int i = off; i < off + len; i++) {
        if (buf[i] == '\n') {
          String text = line.toString(StandardCharsets.UTF_8);
          if (first == null && text.startsWith("error: ")) {
            first = text;
          }
          line.reset();
        } else if (first == null) {
          line.write(buf[i]);
        }
      }
    }

    /** The first error line written, or null. */
    synchronized String first() {
      return first;
    }
  }
}
