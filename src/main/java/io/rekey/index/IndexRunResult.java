package io.rekey.index;

import io.rekey.write.BulkLoader;
import java.util.List;
import java.util.Map;

/**
 * What an {@code index build} or {@code index update} did. Rows read = indexed + without a value +
 * rejected.
 *
 * @param kind {@code build} or {@code update}
 * @param write {@code hfiles} (bulk-loaded) or {@code puts}
 * @param windowFrom the oldest cell timestamp indexed (an update), or null for all (a build)
 * @param windowTo cells at or after this were left for the next run
 * @param watermarkBefore the watermark the run started from, or null
 * @param watermarkAfter the watermark the run left
 * @param nothingToDo the window was empty (the watermark is already at the end)
 * @param stored the entry cells stored, counted from the index table's store files, against the
 *     cells written; null for Puts and when nothing was loaded
 * @param rejectsGlob the rejects files, or null when no row was rejected
 * @param indexRegions how a new index table's regions were planned, or null when it existed
 */
public record IndexRunResult(
    String kind,
    String source,
    String index,
    String definition,
    boolean indexCreated,
    String indexRegions,
    String read,
    String write,
    Long windowFrom,
    long windowTo,
    Long watermarkBefore,
    long watermarkAfter,
    boolean nothingToDo,
    IndexStats counts,
    long cellsWritten,
    long bytesWritten,
    int files,
    BulkLoader.Stored stored,
    String rejectsGlob,
    List<String> rejectExamples,
    Map<String, Double> stageSeconds,
    double seconds) {
  public IndexRunResult {
    rejectExamples = List.copyOf(rejectExamples);
    stageSeconds =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stageSeconds));
  }
}
