package io.rekey.verify;

import io.rekey.common.JsonResult;
import java.util.List;

/**
 * The verdict of comparing a source, through the key mapping, with a target.
 *
 * @param matches true when every region's count and digest agree
 * @param sourceCells cells of the source that the mapping keeps (rejected rows left out)
 * @param targetCells cells the target holds
 * @param regions regions compared
 * @param differences the regions that differ, in key order (at most 100)
 * @param differingRegions how many regions differ
 * @param seconds wall time of the comparison
 */
public record VerifyResult(
    boolean matches,
    long sourceCells,
    long targetCells,
    int regions,
    List<RegionDiff> differences,
    int differingRegions,
    double seconds)
    implements JsonResult {
  public VerifyResult {
    differences = List.copyOf(differences);
  }
}
