package io.rekey.rekey;

import io.rekey.verify.VerifyResult;
import io.rekey.write.BulkLoader;
import java.util.List;

/**
 * What a {@code rekey sync} did: the windows it copied, each with its counts, and where the
 * watermark moved. In every window the cells add up ({@link SyncStats#addsUp()}).
 *
 * @param finalRun the last sync, with a verify of the cells below {@code windowTo}
 * @param windowFrom the watermark found: the first window's start
 * @param windowTo where the last window ended
 * @param watermarkAfter the watermark left (the last window's end; unmoved when nothing was done)
 * @param lagMillis how far the watermark is behind now, when the sync ended
 * @param nothingToDo the watermark was already at or past {@code windowTo}
 * @param windows the windows copied, in order
 * @param totals the windows' counts summed
 * @param verify the final verify, or null
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
    double seconds) {
  public SyncResult {
    windows = List.copyOf(windows);
    rejectExamples = List.copyOf(rejectExamples);
  }

  /**
   * One window.
   *
   * @param write {@code puts} or {@code hfiles}
   * @param cellsWritten cells the writers wrote (window cells, moved rows, retiring markers)
   * @param stored the stored-cell check of an HFile window, or null for Puts
   */
  public record Window(
      long from,
      long to,
      String write,
      SyncStats stats,
      long cellsWritten,
      int files,
      BulkLoader.Stored stored,
      double seconds) {}
}
