package io.rekey.verify;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rekey.run.RunRecord;

/**
 * One line of a migration's run history: a {@code verify} of its target, so that a switch can ask
 * when the target was last proven and whether a comparison failed since.
 *
 * @param head the run ({@code verify}), its outcome ({@code match}, {@code differs} or {@code
 *     failed}) and, as the window's end, the {@code --until} it compared below (null: everything)
 * @param sourceCells source cells compared
 * @param targetCells target cells compared
 * @param differingRegions target regions that differed
 * @param message why the comparison did not prove the target, or why it failed; null on a match
 */
public record VerifyRunRecord(
    @JsonUnwrapped RunRecord head,
    long sourceCells,
    long targetCells,
    int differingRegions,
    String message) {
  /** The run's name in the history. */
  public static final String RUN = "verify";

  /** The outcome of a comparison that proved the target. */
  public static final String MATCH = "match";

  static VerifyRunRecord failed(RunRecord.Start start, String message) {
    return new VerifyRunRecord(start.failed(), 0, 0, 0, message);
  }

  static VerifyRunRecord of(RunRecord.Start start, VerifyResult r, String finding) {
    return new VerifyRunRecord(
        start.ended(finding == null ? MATCH : "differs", r.seconds(), null, start.windowTo(), null),
        r.sourceCells(),
        r.targetCells(),
        r.differingRegions(),
        finding);
  }
}
