package io.rekey.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple4;
import scala.collection.JavaConverters;

/**
 * A long accumulator's value while its job runs. The accumulator itself only reaches the driver
 * when a task ends; the partial counts of running tasks arrive with the executors' heartbeats
 * (every 10 s by default, {@code spark.executor.heartbeatInterval}) and are added here. Close it to
 * stop listening.
 */
public final class LiveCount implements AutoCloseable {
  private final JavaSparkContext sc;
  private final LongAccumulator accumulator;
  private final Listener listener;

  public LiveCount(JavaSparkContext sc, LongAccumulator accumulator) {
    this.sc = sc;
    this.accumulator = accumulator;
    this.listener = new Listener(accumulator.id());
    sc.sc().addSparkListener(listener);
  }

  /** Finished tasks' counts plus the latest partial counts of running ones. */
  public long value() {
    return accumulator.value() + listener.partial();
  }

  @Override
  public void close() {
    sc.sc().removeSparkListener(listener);
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
      // The updates' Seq is scala.collection.Seq in Scala 2.12 and immutable.Seq in 2.13: read
      // both as what they share, so one source compiles for every cell.
      for (Tuple4<Object, Object, Object, ? extends scala.collection.Iterable<AccumulableInfo>>
          task : JavaConverters.asJavaIterable(update.accumUpdates())) {
        for (AccumulableInfo info : JavaConverters.asJavaIterable(task._4())) {
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
}
