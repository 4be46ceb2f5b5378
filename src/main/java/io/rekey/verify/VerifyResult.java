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
    double seconds)
    implements JsonResult {
  public VerifyResult {
    differences = List.copyOf(differences);
    changedExamples = List.copyOf(changedExamples);
  }
}
