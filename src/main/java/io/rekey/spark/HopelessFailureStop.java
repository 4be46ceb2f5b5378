package io.rekey.spark;

import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Stops a stage at the first task failure that no retry can cure (a delegation token past its life,
 * in a job Spark renews none for), instead of letting Spark run the task {@code
 * spark.task.maxFailures} times, each as long as the first. The stage is cancelled with the
 * failure's own words as the reason, so the job's exception carries them to the one line the
 * command prints.
 */
public final class HopelessFailureStop extends SparkListener {
  private final SparkContext sc;
  private final Function<String, Optional<String>> hopeless;

  /**
   * @param hopeless a failed task's text to the words that make it hopeless; empty for a failure a
   *     retry may cure
   */
  public HopelessFailureStop(SparkContext sc, Function<String, Optional<String>> hopeless) {
    this.sc = sc;
    this.hopeless = hopeless;
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    if (end.reason() instanceof TaskFailedReason failed) {
      hopeless
          .apply(failed.toErrorString())
          .ifPresent(words -> sc.cancelStage(end.stageId(), words));
    }
  }
}
