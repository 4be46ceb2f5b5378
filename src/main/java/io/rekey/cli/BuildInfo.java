package io.rekey.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What this jar was built from and for, as {@code --version} prints it: the tool's version and
 * commit, and its support-matrix cell (Spark, Scala, HBase client, Hadoop). Read from the build's
 * {@code cell.properties}, which Maven writes into the jar.
 */
final class BuildInfo {
  private static final String RESOURCE = "/io/rekey/cell.properties";

  private final Properties build;

  private BuildInfo(Properties build) {
    this.build = build;
  }

  static BuildInfo ofThisJar() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BuildInfo(p);
  }

  /** {@code --version}'s lines. */
  String describe() {
    String commit = get("rekey.commit");
    if ("true".equals(build.getProperty("rekey.commit.dirty"))) {
      commit += " with uncommitted changes";
    }
    return "hbase-rekey "
        + get("rekey.version")
        + " (commit "
        + commit
        + ")\n"
        + "cell "
        + get("rekey.cell")
        + ": Spark "
        + get("spark.version")
        + " (Scala "
        + get("scala.version")
        + "), HBase client "
        + get("hbase.version")
        + ", Hadoop "
        + get("hadoop.version")
        + "\n"
        + "Java "
        + System.getProperty("java.version")
        + " ("
        + System.getProperty("java.vendor")
        + ")\n";
  }

  private String get(String key) {
    return build.getProperty(key, "unknown");
  }
}
