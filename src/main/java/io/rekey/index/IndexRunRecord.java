package io.rekey.index;

import java.time.Instant;

/**
 * One line of an index's run history in the state table: what a build, update or scrutiny run did
 * and how it ended, so an operator can audit what the schedule did. Failed runs are recorded too
 * (when the state table can still be written).
 *
 * @param run {@code build}, {@code update}, {@code scrutiny} or {@code scrutiny --repair}
 * @param outcome {@code done}, {@code nothing to do}, {@code differences found} (scrutiny) or
 *     {@code failed}
 * @param started the run's start, ISO-8601
 * @param windowFrom an update's oldest cell timestamp indexed; null for a build or scrutiny
 * @param windowTo cells at or after this were left for the next run; null for scrutiny
 * @param watermarkBefore the watermark the run found
 * @param watermarkAfter the watermark the run left
 * @param rowsRead source rows read
 * @param entriesWritten entries written (built, updated or repaired)
 * @param entriesDeleted entries deleted by a repair
 * @param rowsRejected source rows rejected
 * @param message why a run failed; null otherwise
 */
public record IndexRunRecord(
    String run,
    String outcome,
    String started,
    double seconds,
    String application,
    Long windowFrom,
    Long windowTo,
    Long watermarkBefore,
    Long watermarkAfter,
    long rowsRead,
    long entriesWritten,
    long entriesDeleted,
    long rowsRejected,
    String message) {

  /**
   * What is known of a run when it starts: enough to record it if it fails.
   *
   * @param windowFrom an update's window start, else null
   * @param windowTo the window's end, or null for scrutiny
   */
  public record Start(
      String run,
      long startedMillis,
      String application,
      Long windowFrom,
      Long windowTo,
      Long watermark) {
    String started() {
      return Instant.ofEpochMilli(startedMillis).toString();
    }

    double seconds() {
      return Math.round((System.currentTimeMillis() - startedMillis) / 10.0) / 100.0;
    }

    /** The record of the run failing; the watermark did not move. */
    public IndexRunRecord failed(String message) {
      return new IndexRunRecord(
          run,
          "failed",
          started(),
          seconds(),
          application,
          windowFrom,
          windowTo,
          watermark,
          watermark,
          0,
          0,
          0,
          0,
          message);
    }
  }

  /** The record of a build or update that ended. */
  static IndexRunRecord of(Start start, IndexRunResult r) {
    return new IndexRunRecord(
        r.kind(),
        r.nothingToDo() ? "nothing to do" : "done",
        start.started(),
        r.seconds(),
        start.application(),
        r.windowFrom(),
        r.windowTo(),
        r.watermarkBefore(),
        r.watermarkAfter(),
        r.counts().rowsRead(),
        r.counts().entries(),
        0,
        r.counts().rowsRejected(),
        null);
  }

  /** The record of a scrutiny run that ended. */
  static IndexRunRecord of(Start start, IndexScrutinyResult r) {
    return new IndexRunRecord(
        start.run(),
        r.clean() ? "done" : r.repaired() ? "repaired" : "differences found",
        start.started(),
        r.seconds(),
        start.application(),
        null,
        null,
        r.watermark(),
        r.watermark(),
        r.sourceRows(),
        r.written(),
        r.deleted(),
        0,
        null);
  }
}
