package io.rekey.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;

/**
 * What Spark did while a method ran, stage by stage, from Spark's own listener events: each stage's
 * wall time, its tasks' summed run and CPU time, the longest task, shuffle bytes; and the part of
 * the method's time no Spark job covered (the driver's own work: snapshot, plan, commit, bulk
 * load). It shows where a method's time is bound, beside the JFR shares of {@link
 * ProfileBenchmark}: a stage whose tasks ran for {@code busyCores} × its wall time kept that many
 * cores busy, and one whose CPU time is far below its run time waited (on a region server, on disk,
 * or for a core).
 *
 * <p>One listener per Spark context, registered by {@link RekeyBenchmark#spark}; {@link
 * RekeyBenchmark#measure} takes what arrived during the method. Spark delivers events
 * asynchronously: {@link #since} waits until every job it saw start has ended.
 */
final class SparkStages extends SparkListener {
  private static final long SETTLE_MILLIS = 5_000;

  private final List<Map<String, Object>> stages = new ArrayList<>();
  private final Map<Integer, long[]> jobSpans = new HashMap<>();
  private final Map<Integer, Double> longestTask = new HashMap<>();
  private int jobsRunning;

  static SparkStages on(SparkContext sc) {
    SparkStages listener = new SparkStages();
    sc.addSparkListener(listener);
    return listener;
  }

  /** Where the next method's events start. */
  synchronized int mark() {
    jobSpans.clear();
    return stages.size();
  }

  /**
   * The stages completed since {@code mark}, and the seconds of {@code methodSeconds} that no Spark
   * job covered, once the listener has seen every started job end (or after a few seconds).
   */
  synchronized Map<String, Object> since(int mark, double methodSeconds)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + SETTLE_MILLIS;
    while (jobsRunning > 0 && System.currentTimeMillis() < deadline) {
      wait(50);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("stages", new ArrayList<>(stages.subList(mark, stages.size())));
    out.put("jobs", jobSpans.size());
    out.put(
        "outsideSparkJobsSeconds",
        RekeyBenchmark.round(Math.max(0, methodSeconds - coveredSeconds())));
    return out;
  }

  /** The wall time covered by at least one job (jobs of one method may overlap). */
  private double coveredSeconds() {
    List<long[]> spans = new ArrayList<>(jobSpans.values());
    spans.removeIf(s -> s[1] == 0);
    spans.sort((a, b) -> Long.compare(a[0], b[0]));
    long covered = 0;
    long end = Long.MIN_VALUE;
    for (long[] s : spans) {
      if (s[1] <= end) {
        continue;
      }
      covered += s[1] - Math.max(s[0], end);
      end = s[1];
    }
    return covered / 1000.0;
  }

  @Override
  public synchronized void onJobStart(SparkListenerJobStart start) {
    jobsRunning++;
    jobSpans.put(start.jobId(), new long[] {start.time(), 0});
  }

  @Override
  public synchronized void onJobEnd(SparkListenerJobEnd end) {
    jobsRunning = Math.max(0, jobsRunning - 1);
    long[] span = jobSpans.get(end.jobId());
    if (span != null) {
      span[1] = end.time();
    }
    notifyAll();
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    longestTask.merge(end.stageId(), end.taskInfo().duration() / 1000.0, Math::max);
  }

  @Override
  public synchronized void onStageCompleted(SparkListenerStageCompleted completed) {
    StageInfo info = completed.stageInfo();
    TaskMetrics m = info.taskMetrics();
    double wall =
        info.submissionTime().isDefined() && info.completionTime().isDefined()
            ? ((Long) info.completionTime().get() - (Long) info.submissionTime().get()) / 1000.0
            : 0;
    double run = m.executorRunTime() / 1000.0;
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("stage", info.name());
    s.put("tasks", info.numTasks());
    s.put("seconds", RekeyBenchmark.round(wall));
    s.put("taskSeconds", RekeyBenchmark.round(run));
    s.put("taskCpuSeconds", RekeyBenchmark.round(m.executorCpuTime() / 1e9));
    s.put("gcSeconds", RekeyBenchmark.round(m.jvmGCTime() / 1000.0));
    s.put(
        "longestTaskSeconds", RekeyBenchmark.round(longestTask.getOrDefault(info.stageId(), 0.0)));
    s.put("busyCores", wall > 0 ? RekeyBenchmark.round(run / wall) : null);
    s.put(
        "shuffleWriteMiB",
        RekeyBenchmark.round(m.shuffleWriteMetrics().bytesWritten() / 1048576.0));
    s.put(
        "shuffleReadMiB",
        RekeyBenchmark.round(m.shuffleReadMetrics().totalBytesRead() / 1048576.0));
    if (info.failureReason().isDefined()) {
      s.put("failed", info.failureReason().get());
    }
    stages.add(s);
    longestTask.remove(info.stageId());
  }
}
