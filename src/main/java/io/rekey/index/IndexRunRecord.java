package io.rekey.index;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rekey.run.RunRecord;

/**
 * One line of an index's run history in the state table: what a build, update or scrutiny run did
 * and how it ended, so an operator can audit what the schedule did. Failed runs are recorded too
 * (when the state table can still be written).
 *
 * @param head the run, its outcome ({@code done}, {@code nothing to do}, {@code repaired}, {@code
 *     differences found} or {@code failed}), its window (none for scrutiny) and watermarks
 * @param rowsRead source rows read
 * @param entriesWritten entries written (built, updated or repaired)
 * @param entriesDeleted entries retired by an update or deleted by a repair
 * @param rowsRejected source rows rejected
 * @param message why a run failed; null otherwise
 */
public record IndexRunRecord(
    @JsonUnwrapped RunRecord head,
    long rowsRead,
    long entriesWritten,
    long entriesDeleted,
    long rowsRejected,
    String message) {

  /** The record of the run failing; the watermark did not move. */
  public static IndexRunRecord failed(RunRecord.Start start, String message) {
    return new IndexRunRecord(start.failed(), 0, 0, 0, 0, message);
  }

  /** The record of a build or update that ended. */
  static IndexRunRecord of(RunRecord.Start start, IndexRunResult r) {
    return new IndexRunRecord(
        start.ended(
            r.nothingToDo() ? "nothing to do" : "done",
            r.seconds(),
            r.windowFrom(),
            r.windowTo(),
            r.watermarkAfter()),
        r.counts().rowsRead(),
        r.counts().entries(),
        r.counts().entriesRetired(),
        r.counts().rowsRejected(),
        null);
  }

  /** The record of a scrutiny run that ended. */
  static IndexRunRecord of(RunRecord.Start start, IndexScrutinyResult r) {
    return new IndexRunRecord(
        start.ended(
            r.clean() ? "done" : r.repaired() ? "repaired" : "differences found",
            r.seconds(),
            null,
            null,
            r.watermark()),
        r.sourceRows(),
        r.written(),
        r.deleted(),
        0,
        null);
  }
}
