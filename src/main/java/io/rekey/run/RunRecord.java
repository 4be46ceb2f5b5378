package io.rekey.run;

import java.time.Instant;

/**
 * What every line of a run history (see {@link RunState#recorded}) says first, whatever the job:
 * which run, how it ended, when, and the window and watermark it found and left. A job's history
 * line holds this unwrapped ({@code @JsonUnwrapped}) beside its own counts, so every history reads
 * the same way.
 *
 * @param run the run's kind, e.g. {@code sync --final} or {@code scrutiny --repair}
 * @param outcome {@code done}, {@code nothing to do}, {@code failed} or a job's own word
 * @param started the run's start, ISO-8601
 * @param seconds how long it ran
 * @param application the Spark application that ran it
 * @param windowFrom the oldest cell timestamp the run covered; null where it has no window
 * @param windowTo cells at or after this were left for the next run; null where it has no window
 * @param watermarkBefore the watermark the run found
 * @param watermarkAfter the watermark the run left
 */
public record RunRecord(
    String run,
    String outcome,
    String started,
    double seconds,
    String application,
    Long windowFrom,
    Long windowTo,
    Long watermarkBefore,
    Long watermarkAfter) {

  /** The outcome of a run that failed. */
  public static final String FAILED = "failed";

  /**
   * What is known of a run when it starts: enough to record it if it fails.
   *
   * @param windowFrom the window's start, or null
   * @param windowTo the window's end, or null
   * @param watermark the watermark found
   */
  public record Start(
      String run,
      long startedMillis,
      String application,
      Long windowFrom,
      Long windowTo,
      Long watermark) {

    /** Seconds since the start, to the hundredth. */
    public double seconds() {
      return Math.round((System.currentTimeMillis() - startedMillis) / 10.0) / 100.0;
    }

    /** The run failing: the watermark did not move. */
    public RunRecord failed() {
      return new RunRecord(
          run,
          FAILED,
          started(),
          seconds(),
          application,
          windowFrom,
          windowTo,
          watermark,
          watermark);
    }

    /** The run ending with {@code outcome} after {@code seconds}, over the window it reports. */
    public RunRecord ended(
        String outcome, double seconds, Long from, Long to, Long watermarkAfter) {
      return new RunRecord(
          run, outcome, started(), seconds, application, from, to, watermark, watermarkAfter);
    }

    private String started() {
      return Instant.ofEpochMilli(startedMillis).toString();
    }
  }
}
