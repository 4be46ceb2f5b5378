package io.rekey.rekey;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rekey.run.RunRecord;

/**
 * One line of a migration's run history: what a {@code rekey repair} found and wrote, failed runs
 * included.
 *
 * @param head the run ({@code repair} or {@code repair --dry-run}), its outcome ({@code repaired},
 *     {@code nothing to repair}, {@code differs}, {@code counted} or {@code failed})
 */
public record RepairRunRecord(
    @JsonUnwrapped RunRecord head,
    long rowsMissing,
    long rowsDifferent,
    long rowsExtra,
    long cellsWritten,
    long cellsMasked,
    String message) {

  static RepairRunRecord failed(RunRecord.Start start, String message) {
    return new RepairRunRecord(start.failed(), 0, 0, 0, 0, 0, message);
  }

  static RepairRunRecord of(RunRecord.Start start, RepairResult r) {
    String outcome =
        r.dryRun()
            ? "counted"
            : r.verify() != null && !r.verify().matches()
                ? "differs"
                : r.rowsDiffering() == 0 ? "nothing to repair" : "repaired";
    return new RepairRunRecord(
        start.ended(outcome, r.seconds(), null, r.until(), start.watermark()),
        r.rowsMissing(),
        r.rowsDifferent(),
        r.rowsExtra(),
        r.cellsWritten(),
        r.cellsMasked(),
        null);
  }
}
