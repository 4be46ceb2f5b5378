package io.rekey.rekey;

import io.rekey.verify.VerifyResult;
import java.time.Instant;
import java.util.Optional;

/**
 * The switch decision of {@code rekey sync --final}, apart from the run: readers and writers may
 * move to the target only when the run was final, no source region served a write while it ran, no
 * source cell is stamped after the writers' stop, the last comparison matched, no target key holds
 * merged source rows unless merging was allowed, no target row changed after the stop, and every
 * source row was mapped (or exactly those the operator acknowledged). Anything else is a refusal,
 * in the one line that says why and what to do.
 */
public final class SwitchVerdict {
  private SwitchVerdict() {}

  /** Why the target may not replace the source yet; empty when it may. */
  public static Optional<String> refusal(SyncResult r) {
    if (!r.finalRun()) {
      return Optional.of(
          "only 'rekey sync --final' (after the writers stop) can say the target may replace the"
              + " source");
    }
    if (r.sourceChanged() != null) {
      return Optional.of(r.sourceChanged() + "; do not switch");
    }
    if (r.rowsWrittenAfterStop() > 0) {
      return Optional.of(
          r.rowsWrittenAfterStop()
              + " source rows hold cells stamped at or after "
              + Instant.ofEpochMilli(r.windowTo())
              + " (first: "
              + r.firstWrittenAfterStop()
              + "): writers have not stopped; do not switch. Stop them, then run 'rekey sync"
              + " --final' again with --writes-stopped-at after their last write");
    }
    VerifyResult verdict = r.verdict();
    if (verdict == null) {
      return Optional.of(
          "the final run compared nothing, so nothing proves the target; do not switch. Run"
              + " 'rekey sync --final' without --no-verify");
    }
    if (!verdict.matches()) {
      return Optional.of(differs(r, verdict));
    }
    String merged = verdict.mergedRefusal(r.mergeAllowed());
    if (merged != null) {
      return Optional.of(merged + "; do not switch yet");
    }
    if (verdict.rowsChangedSince() > 0) {
      return Optional.of(
          verdict.rowsChangedSince()
              + " target rows hold cells stamped at or after --writes-stopped-at (first: "
              + String.join(", ", verdict.changedExamples())
              + "), so they were not compared: something wrote them after the stop; do not"
              + " switch yet");
    }
    if (!verdict.unmapped().acknowledged(r.acceptedUnmapped())) {
      return Optional.of(
          "every mapped row matches, but "
              + verdict.unmapped().refusal(r.acceptedUnmapped())
              + "; do not switch yet");
    }
    return Optional.empty();
  }

  private static String differs(SyncResult r, VerifyResult verdict) {
    return "the final comparison found "
        + verdict.differingRegions()
        + " target region(s) that differ from the source below "
        + Instant.ofEpochMilli(r.windowTo())
        + " (listed above): do not switch yet. "
        + (r.repair() == null
            ? "A write stamped before the watermark or a delete a compaction purged is not"
                + " seen by a time window: run 'rekey sync --final --repair' (or 'rekey"
                + " repair') to write exactly what differs"
            : r.repair().cellsMasked() > 0
                ? r.repair().maskedLine()
                : "The source changed while the repair ran: run it again");
  }
}
