package io.rekey.rekey;

import io.rekey.verify.VerifyResult;
import io.rekey.write.BulkLoader;
import java.util.List;
import java.util.Map;

/**
 * What a rekey run did. The counts add up: {@code cellsRead = cellsWritten + cellsRejected +
 * cellsSkipped} (checked before anything is loaded).
 *
 * @param dryRun only the plan was made
 * @param resumed the run went on from an earlier run's files
 * @param state how far the run got ({@code LOADED} when it completed)
 * @param stored the cells stored for the run, counted from the target's store files, against the
 *     cells written; null when nothing was loaded
 * @param rejectsFiles the rejects files (tab-separated: reason, detail, old key, hex), or empty
 * @param rejectExamples the first rejects, for the summary
 * @param verify the comparison, or null when skipped
 * @param syncWatermark where {@code rekey sync} starts (epoch millis): the copy's read start minus
 *     the safety lag; 0 for a dry run
 * @param stageSeconds wall time per stage, in order
 */
public record RekeyResult(
    RekeyPlan plan,
    boolean dryRun,
    boolean resumed,
    String state,
    long rowsRead,
    long cellsRead,
    long cellsWritten,
    long rowsRejected,
    long cellsRejected,
    long cellsSkipped,
    long bytesWritten,
    int files,
    BulkLoader.Stored stored,
    String rejectsFiles,
    List<String> rejectExamples,
    VerifyResult verify,
    long syncWatermark,
    Map<String, Double> stageSeconds,
    double totalSeconds) {
  public RekeyResult {
    rejectExamples = List.copyOf(rejectExamples);
    stageSeconds =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stageSeconds));
  }

  /** The result of a dry run: the plan, and nothing read, written or loaded. */
  public static RekeyResult dryRun(RekeyPlan plan, double seconds) {
    return new RekeyResult(
        plan, true, false, "PLANNED", 0, 0, 0, 0, 0, 0, 0, 0, null, null, List.of(), null, 0,
        Map.of(), seconds);
  }

  /** Whether every cell read is accounted for. */
  public boolean countsAddUp() {
    return cellsRead == cellsWritten + cellsRejected + cellsSkipped;
  }
}
