package io.rekey.spark;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a job soon after its rows rejected pass {@code --max-rejects}, instead of after the whole
 * pass: it watches the rejected-rows accumulator ({@link LiveCount}) and cancels the job group when
 * the count is over the limit. The job's action then fails; {@link #tripped()} says why.
 */
public final class RejectLimit implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RejectLimit.class);
  private static final long POLL_MS = 250;

  private final LiveCount rejected;
  private final ScheduledExecutorService timer;
  private volatile long seen = -1;

  /**
   * @param jobGroup the group the job runs in (cancelled as a whole)
   * @param rowsRejected counts rejected rows in the tasks
   */
  public RejectLimit(
      JavaSparkContext sc, String jobGroup, LongAccumulator rowsRejected, long maxRejects) {
    this.rejected = new LiveCount(sc, rowsRejected);
    this.timer = ProgressReporter.daemonTimer(jobGroup + "-reject-limit");
    timer.scheduleAtFixedRate(
        () -> {
          long n = rejected.value();
          if (n > maxRejects && seen < 0) {
            seen = n;
            LOG.info(
                "{}: {} rows rejected, more than --max-rejects {}: stopping the job",
                jobGroup,
                n,
                maxRejects);
            sc.cancelJobGroup(jobGroup);
          }
        },
        POLL_MS,
        POLL_MS,
        TimeUnit.MILLISECONDS);
  }

  /** Whether the limit stopped the job. */
  public boolean tripped() {
    return seen >= 0;
  }

  /** The rejected rows counted when the job was stopped (or now, if it was not). */
  public long rejectedSoFar() {
    return seen >= 0 ? seen : rejected.value();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    rejected.close();
  }
}
