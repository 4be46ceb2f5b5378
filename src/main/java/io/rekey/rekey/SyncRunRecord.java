package io.rekey.rekey;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rekey.run.RunRecord;

/**
 * One line of a migration's run history in the state table (next to the watermark): what a {@code
 * rekey sync} did and how it ended, failed runs included.
 *
 * @param head the run ({@code sync} or {@code sync --final}), its outcome ({@code done}, {@code
 *     nothing to do}, {@code verified}, {@code differs} or {@code failed}), window and watermarks
 * @param message why a run failed; null otherwise
 */
public record SyncRunRecord(
    @JsonUnwrapped RunRecord head,
    int windows,
    long rowsRead,
    long cellsRead,
    long deletesRead,
    long rowsMoved,
    long rowsRejected,
    long cellsWritten,
    String message) {

  static SyncRunRecord failed(RunRecord.Start start, String message) {
    return new SyncRunRecord(start.failed(), 0, 0, 0, 0, 0, 0, 0, message);
  }

  static SyncRunRecord of(RunRecord.Start start, SyncResult r) {
    long written = 0;
    for (SyncResult.Window w : r.windows()) {
      written += w.cellsWritten();
    }
    String outcome =
        r.verify() != null
            ? (r.verify().matches() ? "verified" : "differs")
            : r.nothingToDo() ? "nothing to do" : "done";
    return new SyncRunRecord(
        start.ended(outcome, r.seconds(), r.windowFrom(), r.windowTo(), r.watermarkAfter()),
        r.windows().size(),
        r.totals().rowsRead(),
        r.totals().cellsRead(),
        r.totals().deletesRead(),
        r.totals().rowsMoved(),
        r.totals().rowsRejected(),
        written,
        null);
  }
}
