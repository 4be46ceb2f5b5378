package io.rekey.rekey;

import io.rekey.common.JsonResult;
import io.rekey.verify.VerifyResult;
import io.rekey.write.Pressure;
import java.util.List;

/**
 * What a {@code rekey repair} found and wrote. The rows are the target rows that differed, by kind;
 * the cells are what it wrote to make them read as the source (or, with {@code --dry-run}, would
 * have written).
 *
 * @param source the source table
 * @param target the target table
 * @param dryRun only counted what to write (--dry-run)
 * @param until the time the tables were compared as of, or null for all cells
 * @param rowsMissing target rows the source maps cells to and the target lacked
 * @param rowsDifferent target rows holding other cells than the source maps to them
 * @param rowsExtra target rows no source row maps to (deleted in the source, or moved away)
 * @param rowsChangedSince with {@code until}: target rows left alone because either side holds a
 *     cell stamped at or after it (what a read shows of them as of then is not knowable)
 * @param cellsPut cells written as Puts with their own timestamps
 * @param cellsDeleted target cells deleted exactly (a version delete each)
 * @param cellsMasked cells that delete markers in the target would hide: not restorable by writing
 * @param cellsWritten cells the writers wrote (Puts and version deletes; 0 with {@code --dry-run})
 * @param examples a few differing rows, {@code KIND key}
 * @param maskedExample the first cell that cannot be restored, or null
 * @param verify the verify after the repair, or null ({@code --dry-run}, {@code --no-verify})
 * @param pressure how far the cluster held the job's writes back (busy answers, waits for
 *     compactions); zero on an idle cluster
 * @param compareSeconds wall time of the comparison
 * @param seconds wall time of the run
 */
public record RepairResult(
    String source,
    String target,
    boolean dryRun,
    Long until,
    long rowsMissing,
    long rowsDifferent,
    long rowsExtra,
    long rowsChangedSince,
    long cellsPut,
    long cellsDeleted,
    long cellsMasked,
    long cellsWritten,
    List<String> examples,
    String maskedExample,
    VerifyResult verify,
    Pressure pressure,
    double compareSeconds,
    double seconds)
    implements JsonResult {
  public RepairResult {
    examples = List.copyOf(examples);
  }

  /** The one line for cells a repair cannot restore, and what to do. */
  public String maskedLine() {
    return String.format(
        "%,d cells are hidden in %s by its own delete markers (first: %s), so writing them does not"
            + " restore them (HBase's default delete behavior). Major-compact %s (major_compact"
            + " '%s' in the HBase shell) to drop the markers, then run the repair again; or alter"
            + " its families to NEW_VERSION_BEHAVIOR => true",
        cellsMasked, target, maskedExample, target, target);
  }

  /** The differing rows, all kinds. */
  public long rowsDiffering() {
    return rowsMissing + rowsDifferent + rowsExtra;
  }
}
