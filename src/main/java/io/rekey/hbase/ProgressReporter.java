package io.rekey.hbase;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a long job's progress at a steady interval: the running stages with their tasks done, and
 * the cells read so far with the rate and, when the total is known, the time left.
 */
public final class ProgressReporter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProgressReporter.class);

  private final ScheduledExecutorService timer;
  private final long started = System.nanoTime();

  /**
   * @param expectedCells the total when known (e.g. from an earlier count), else 0
   */
  public ProgressReporter(
      String job,
      JavaSparkContext sc,
      LongAccumulator cells,
      long expectedCells,
      long periodSeconds) {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, job + "-progress");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(
        () -> report(job, sc, cells, expectedCells),
        periodSeconds,
        periodSeconds,
        TimeUnit.SECONDS);
  }

  private void report(String job, JavaSparkContext sc, LongAccumulator cells, long expected) {
    try {
      StringBuilder stages = new StringBuilder();
      for (int id : sc.statusTracker().getActiveStageIds()) {
        SparkStageInfo s = sc.statusTracker().getStageInfo(id);
        if (s != null) {
          stages.append(
              String.format(" [stage %d: %d/%d tasks]", id, s.numCompletedTasks(), s.numTasks()));
        }
      }
      double secs = (System.nanoTime() - started) / 1e9;
      long n = cells.value();
      long rate = secs > 0 ? Math.round(n / secs) : 0;
      String eta =
          expected > 0 && rate > 0 && n < expected
              ? String.format(", about %d s left", (expected - n) / rate)
              : "";
      LOG.info("{}: {} cells read ({} cells/s{}){}", job, n, rate, eta, stages);
    } catch (RuntimeException e) {
      LOG.debug("progress report failed", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
