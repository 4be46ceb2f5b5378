package io.rekey.spark;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a long job's progress at a steady interval: cells read so far, the rate and, when the total
 * is known, the time left, plus the running stages' tasks. A Spark accumulator only reaches the
 * driver when a task ends, so the partial counts of running tasks are taken from the executors'
 * heartbeats as well ({@link LiveCount}).
 */
public final class ProgressReporter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProgressReporter.class);

  private final ScheduledExecutorService timer;
  private final JavaSparkContext sc;
  private final LiveCount cellsSoFar;
  private final long started = System.nanoTime();

  /**
   * @param expectedCells the total when known, else 0
   */
  public ProgressReporter(
      String job,
      JavaSparkContext sc,
      LongAccumulator cells,
      long expectedCells,
      long periodSeconds) {
    this.sc = sc;
    this.cellsSoFar = new LiveCount(sc, cells);
    timer = daemonTimer(job + "-progress");
    timer.scheduleAtFixedRate(
        () -> report(job, expectedCells), periodSeconds, periodSeconds, TimeUnit.SECONDS);
  }

  /** A single timer thread that does not keep the driver alive. */
  static ScheduledExecutorService daemonTimer(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  private void report(String job, long expected) {
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
      long n = cellsSoFar.value();
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
    cellsSoFar.close();
  }
}
