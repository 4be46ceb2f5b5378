package io.rekey.verify;

import io.rekey.common.JsonResult;
import java.util.List;

/**
 * The verdict of comparing a source, through the key mapping, with a target.
 *
 * <p>A match is a match of every source row the mapping can place: the rows it cannot ({@code
 * unmapped}) are in no region, and every verdict states them beside itself.
 *
 * @param matches true when every region's count and digest agree
 * @param sourceCells cells of the source that the mapping keeps (unmapped rows left out)
 * @param targetCells cells the target holds
 * @param regions regions compared
 * @param differences the regions that differ, in key order (at most 100)
 * @param differingRegions how many regions differ
 * @param unmapped the source rows holding cells that the mapping cannot place, by reason
 * @param rowsChangedSince with a time {@code until}: the target rows left out of the comparison
 *     because either side holds a cell stamped at or after it ({@link ChangedSince}); 0 otherwise
 * @param changedExamples the first few of them, printable
 * @param mergedKeys with a layout that is not injective: target keys that two or more source rows
 *     map to (their cells merge there, and the comparison sums them); 0 for an injective layout
 * @param mergedExamples the first few of them, printable
 * @param seconds wall time of the comparison
 */
public record VerifyResult(
    boolean matches,
    long sourceCells,
    long targetCells,
    int regions,
    List<RegionDiff> differences,
    int differingRegions,
    UnmappedRows unmapped,
    long rowsChangedSince,
    List<String> changedExamples,
    long mergedKeys,
    List<String> mergedExamples,
    double seconds)
    implements JsonResult {
  /**
   * The one line refusing a verdict over merged rows when merging was not allowed, or null when
   * none merged or merging was allowed ({@code --allow-merge}).
   */
  public String mergedRefusal(boolean allowMerge) {
    if (mergedKeys == 0 || allowMerge) {
      return null;
    }
    return mergedKeys
        + " target keys hold the cells of two or more source rows (first: "
        + String.join(", ", mergedExamples)
        + "), because the target key is not injective: the target cannot be said to hold the"
        + " source row for row. Keep the lost fields in the target key, or pass --allow-merge if"
        + " the rows are meant to merge";
  }

  public VerifyResult {
    differences = List.copyOf(differences);
    changedExamples = List.copyOf(changedExamples);
    mergedExamples = List.copyOf(mergedExamples);
  }
}
