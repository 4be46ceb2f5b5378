package io.rekey.testing;

import io.rekey.write.FaultHook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * A Spark plugin, for tests on a real cluster only: in every executor JVM it makes the first
 * attempt of writer partition 0 stall for {@value #STALL_MS} ms once its HFiles are complete, so
 * Spark's speculation launches a copy that finishes first, and both attempts have written whole
 * files. Each attempt that reaches that point leaves a marker file ({@code attempt-P-A}) in the
 * directory named by the system property {@code rekey.test.markers}.
 */
public final class SlowFirstWriterAttempt implements SparkPlugin {
  static final long STALL_MS = 25_000;

  @Override
  public DriverPlugin driverPlugin() {
    return null;
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext ctx, Map<String, String> extraConf) {
        Path markers = Path.of(System.getProperty("rekey.test.markers"));
        FaultHook.set(
            (point, partition, attempt) -> {
              if (point != FaultHook.Point.WRITER_FINISHED) {
                return;
              }
              mark(markers, "attempt-" + partition + "-" + attempt);
              if (partition == 0 && attempt == 0) {
                // Killed or not, this attempt sits here with its files complete.
                long until = System.currentTimeMillis() + STALL_MS;
                while (System.currentTimeMillis() < until) {
                  try {
                    Thread.sleep(200);
                  } catch (InterruptedException e) {
                    mark(markers, "killed-" + partition + "-" + attempt);
                  }
                }
              }
            });
      }
    };
  }

  private static void mark(Path dir, String name) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name), name);
    } catch (IOException e) {
      throw new IllegalStateException("cannot leave marker " + name + " in " + dir, e);
    }
  }
}
