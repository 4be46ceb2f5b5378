package io.rekey.spark;

import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.Map;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkFiles;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Gives every executor the job's log settings ({@value #FILE}) when it starts, before its first
 * task: the file shipped with {@code spark-submit --files}, else the copy in the application jar.
 *
 * <p>A {@code -Dlog4j2.configurationFile} in the executors' Java options works only where the file
 * is on the executor's disk when its JVM starts (YARN localizes {@code --files} first; a standalone
 * Worker or a Kubernetes pod fetches them later), and without it executors log HBase's harmless
 * snapshot-read stack traces by the hundred. A plugin runs in every executor, under every cluster
 * manager. In local mode the executor is the driver, whose logging the launcher has set: left
 * alone.
 */
public final class ExecutorLogging implements SparkPlugin {
  /** The executors' log settings: in {@code conf/} and at {@code io/rekey/} in the jar. */
  public static final String FILE = "log4j2-executor.properties";

  @Override
  public DriverPlugin driverPlugin() {
    return null;
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext ctx, Map<String, String> extraConf) {
        if (!"driver".equals(ctx.executorID())) {
          URI settings = settings();
          if (settings != null) {
            Configurator.reconfigure(settings);
          }
        }
      }
    };
  }

  private static URI settings() {
    File shipped = new File(SparkFiles.get(FILE));
    if (shipped.isFile()) {
      return shipped.toURI();
    }
    URL inJar = ExecutorLogging.class.getResource(FILE);
    try {
      return inJar == null ? null : inJar.toURI();
    } catch (URISyntaxException e) {
      return null;
    }
  }
}
