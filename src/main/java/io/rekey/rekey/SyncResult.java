package io.rekey.rekey;

import io.rekey.common.JsonResult;
import io.rekey.verify.VerifyResult;
import io.rekey.write.Pressure;
import io.rekey.write.StoredCells;
import java.util.List;

/**
 * What a {@code rekey sync} did: the windows it copied, each with its counts, and where the
 * watermark moved. In every window the cells add up ({@link SyncStats#addsUp()}).
 *
 * @param source the source table
 * @param target the target table
 * @param finalRun the last sync, with a verify of the cells below {@code windowTo}
 * @param windowFrom the watermark found: the first window's start
 * @param windowTo where the last window ended
 * @param watermarkAfter the watermark left (the last window's end; unmoved when nothing was done)
 * @param lagMillis how far the watermark is behind now, when the sync ended
 * @param nothingToDo the watermark was already at or past {@code windowTo}
 * @param windows the windows copied, in order
 * @param totals the windows' counts summed
 * @param rejectsFiles the rejects files of the windows, or null when no row was rejected
 * @param rejectExamples the first rejected rows, for the summary
 * @param verify the final verify, or null
 * @param repair the final repair (with its own verify), or null
 * @param rowsWrittenAfterStop with {@code finalRun}: source rows holding cells stamped at or after
 *     {@code windowTo} once the last window was copied (writers had not stopped)
 * @param firstWrittenAfterStop the first such row, or null
 * @param sourceChanged with {@code finalRun}: what changed in the source's regions between the
 *     start of the final sync and its last comparison (a write of any timestamp, a bulk load, a
 *     split, a move), or null when nothing did
 * @param acceptedUnmapped with {@code finalRun}: the source rows that cannot be mapped the operator
 *     acknowledged ({@code --accept-unmapped}), or null
 * @param mergeAllowed the migration lets a layout that is not injective merge rows ({@code
 *     --allow-merge})
 * @param clockSkewMillis how far from the driver's clock the farthest region server clock was,
 *     among the state table's server and every server holding the source or the target
 * @param warnings what the operator must know (delete markers a compaction may purge)
 * @param pressure how far the cluster held the windows' and the repair's writes back (busy answers,
 *     waits for compactions), summed; zero on an idle cluster
 * @param seconds wall time of the run
 */
public record SyncResult(
    String source,
    String target,
    boolean finalRun,
    long windowFrom,
    long windowTo,
    long watermarkAfter,
    long lagMillis,
    boolean nothingToDo,
    List<Window> windows,
    SyncStats totals,
    String rejectsFiles,
    List<String> rejectExamples,
    VerifyResult verify,
    RepairResult repair,
    long rowsWrittenAfterStop,
    String firstWrittenAfterStop,
    String sourceChanged,
    Long acceptedUnmapped,
    boolean mergeAllowed,
    long clockSkewMillis,
    List<String> warnings,
    Pressure pressure,
    double seconds)
    implements JsonResult {
  public SyncResult {
    windows = List.copyOf(windows);
    rejectExamples = List.copyOf(rejectExamples);
    warnings = List.copyOf(warnings);
  }

  /**
   * The last word on the target with {@code finalRun}: the verify after the repair when one ran,
   * else the final verify; null otherwise.
   */
  public VerifyResult verdict() {
    return repair != null && repair.verify() != null ? repair.verify() : verify;
  }

  /**
   * Whether readers and writers can move to the target: a final run whose last comparison matched,
   * with no source row it could not map (or exactly those the operator acknowledged), after whose
   * window no source cell was written, and while which no source region served a write.
   */
  public boolean switchSafe() {
    return SwitchVerdict.refusal(this).isEmpty();
  }

  /**
   * One window.
   *
   * @param from the window's first cell timestamp (epoch millis)
   * @param to cells at or after this were left for the next window
   * @param write {@code puts} or {@code hfiles}
   * @param stats what the window read, moved, rejected and wrote
   * @param cellsWritten cells the writers wrote (window cells, moved rows, retiring markers)
   * @param files HFiles written (0 for Puts)
   * @param stored the stored-cell check of an HFile window, or null for Puts
   * @param pressure how far the cluster held the window's writes back
   * @param seconds wall time of the window
   */
  public record Window(
      long from,
      long to,
      String write,
      SyncStats stats,
      long cellsWritten,
      int files,
      StoredCells stored,
      Pressure pressure,
      double seconds) {}
}
