package io.rekey.hbase;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple4;
import scala.collection.JavaConverters;

/**
 * Logs a long job's progress at a steady interval: cells read so far, the rate and, when the total
 * is known, the time left, plus the running stages' tasks. A Spark accumulator only reaches the
 * driver when a task ends, so the partial counts of running tasks are taken from the executors'
 * heartbeats (every 10 s by default) as well.
 */
public final class ProgressReporter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProgressReporter.class);

  private final ScheduledExecutorService timer;
  private final JavaSparkContext sc;
  private final Listener listener;
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
    this.listener = new Listener(cells.id());
    sc.sc().addSparkListener(listener);
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, job + "-progress");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(
        () -> report(job, cells, expectedCells), periodSeconds, periodSeconds, TimeUnit.SECONDS);
  }

  /** Keeps the latest partial value of the accumulator for each running task. */
  private static final class Listener extends SparkListener {
    private final long accumulatorId;
    private final Map<Long, Long> running = new ConcurrentHashMap<>();

    Listener(long accumulatorId) {
      this.accumulatorId = accumulatorId;
    }

    @Override
    public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
      for (Tuple4<Object, Object, Object, scala.collection.Seq<AccumulableInfo>> task :
          JavaConverters.seqAsJavaList(update.accumUpdates())) {
        for (AccumulableInfo info : JavaConverters.seqAsJavaList(task._4())) {
          if (info.id() == accumulatorId && info.update().isDefined()) {
            running.put((Long) task._1(), ((Number) info.update().get()).longValue());
          }
        }
      }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      // Its final value is now in the accumulator itself.
      running.remove(end.taskInfo().taskId());
    }

    long partial() {
      return running.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private void report(String job, LongAccumulator cells, long expected) {
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
      long n = cells.value() + listener.partial();
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
    sc.sc().removeSparkListener(listener);
  }
}
