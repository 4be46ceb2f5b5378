package io.rekey.verify;

import io.rekey.keys.KeyText;

/**
 * A target region where source and target differ.
 *
 * @param region the target region's index, in key order
 * @param start its start key
 * @param end its end key
 * @param sourceCells cells the source maps into this region
 * @param targetCells cells the target holds there
 */
public record RegionDiff(
    int region, KeyText start, KeyText end, long sourceCells, long targetCells) {}
