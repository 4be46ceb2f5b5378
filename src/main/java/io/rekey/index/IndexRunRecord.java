package io.rekey.index;

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

  /** The record of a build or update that ended. */
  static IndexRunRecord of(IndexRunResult r, String started, String application) {
    return new IndexRunRecord(
        r.kind(),
        r.nothingToDo() ? "nothing to do" : "done",
        started,
        r.seconds(),
        application,
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
  static IndexRunRecord of(IndexScrutinyResult r, String started, String application) {
    return new IndexRunRecord(
        r.repaired() ? "scrutiny --repair" : "scrutiny",
        r.clean() ? "done" : r.repaired() ? "repaired" : "differences found",
        started,
        r.seconds(),
        application,
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

  /** The record of a run that failed; the watermark did not move. */
  static IndexRunRecord failed(
      String run,
      String started,
      double seconds,
      String application,
      Long windowFrom,
      Long windowTo,
      Long watermark,
      String message) {
    return new IndexRunRecord(
        run,
        "failed",
        started,
        seconds,
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
