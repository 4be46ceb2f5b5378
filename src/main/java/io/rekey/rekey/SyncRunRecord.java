package io.rekey.rekey;

import java.time.Instant;

/**
 * One line of a migration's run history in the state table (next to the watermark): what a {@code
 * rekey sync} did and how it ended, failed runs included.
 *
 * @param run {@code sync} or {@code sync --final}
 * @param outcome {@code done}, {@code nothing to do}, {@code verified}, {@code differs} or {@code
 *     failed}
 * @param message why a run failed; null otherwise
 */
public record SyncRunRecord(
    String run,
    String outcome,
    String started,
    double seconds,
    String application,
    Long windowFrom,
    Long windowTo,
    Long watermarkBefore,
    Long watermarkAfter,
    int windows,
    long rowsRead,
    long cellsRead,
    long deletesRead,
    long rowsMoved,
    long rowsRejected,
    long cellsWritten,
    String message) {

  static SyncRunRecord failed(
      String run,
      long startedMillis,
      String application,
      Long watermark,
      Long windowTo,
      String message) {
    return new SyncRunRecord(
        run,
        "failed",
        Instant.ofEpochMilli(startedMillis).toString(),
        Math.round((System.currentTimeMillis() - startedMillis) / 10.0) / 100.0,
        application,
        watermark,
        windowTo,
        watermark,
        watermark,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        message);
  }

  static SyncRunRecord of(String run, long startedMillis, String application, SyncResult r) {
    long written = 0;
    for (SyncResult.Window w : r.windows()) {
      written += w.cellsWritten();
    }
    String outcome =
        r.verify() != null
            ? (r.verify().matches() ? "verified" : "differs")
            : r.nothingToDo() ? "nothing to do" : "done";
    return new SyncRunRecord(
        run,
        outcome,
        Instant.ofEpochMilli(startedMillis).toString(),
        r.seconds(),
        application,
        r.windowFrom(),
        r.windowTo(),
        r.windowFrom(),
        r.watermarkAfter(),
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
