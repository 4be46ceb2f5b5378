package io.rekey.audit;

import io.rekey.keys.KeyLayout;
import java.io.Serializable;
import java.util.List;

/**
 * What the per-partition profiler needs to know before it reads: the table's regions, how its keys
 * are made (if known), and the bounds that keep every profile small whatever the table's size.
 *
 * @param regionStarts the start key of each region, in order (the first is empty)
 * @param sourceKey how the row key is made, or null when not given
 * @param rowSampleSize rows kept in the uniform row sample (what-if layouts, monotonic keys)
 * @param cellSampleSize cells kept in the uniform cell sample (recent writes, key ranges × time)
 * @param topK length of the top lists (widest rows, largest rows, largest cells, qualifiers)
 * @param hugeCellBytes cells with values larger than this are counted as huge
 * @param wideRowColumns rows with more columns than this are counted as wide
 * @param longKeyBytes keys longer than this are counted as long
 */
public record ProfileSettings(
    List<byte[]> regionStarts,
    KeyLayout sourceKey,
    int rowSampleSize,
    int cellSampleSize,
    int topK,
    long hugeCellBytes,
    long wideRowColumns,
    int longKeyBytes)
    implements Serializable {
  /** HBase's advice: keep cells under 10 MB (or use MOB). */
  public static final long HUGE_CELL_BYTES = 10L << 20;

  /** The and HBase's limit for wide rows: 100,000 columns. */
  public static final long WIDE_ROW_COLUMNS = 100_000;

  /** Row keys longer than this cost storage and cache in every cell. */
  public static final int LONG_KEY_BYTES = 100;

  public ProfileSettings {
    regionStarts = List.copyOf(regionStarts);
  }

  /** Settings with the standard thresholds. */
  public static ProfileSettings of(
      List<byte[]> regionStarts, KeyLayout sourceKey, int rowSampleSize, int cellSampleSize) {
    return new ProfileSettings(
        regionStarts,
        sourceKey,
        rowSampleSize,
        cellSampleSize,
        20,
        HUGE_CELL_BYTES,
        WIDE_ROW_COLUMNS,
        LONG_KEY_BYTES);
  }
}
