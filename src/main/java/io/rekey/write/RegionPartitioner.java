package io.rekey.write;

import java.util.Arrays;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.Partitioner;

/**
 * Sends each cell to a partition of its target region. A region gets {@code tasksPerRegion}
 * partitions, chosen by a hash of the row, so a hot region is written by several tasks (each writes
 * its own sorted HFiles for that region; bulk load accepts overlapping files) and all cells of a
 * row stay together.
 */
public final class RegionPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;

  private final byte[][] regionStarts;
  private final int tasksPerRegion;

  /**
   * @param regionStarts the start keys of the regions after the first, sorted
   */
  public RegionPartitioner(byte[][] regionStarts, int tasksPerRegion) {
    this.regionStarts = regionStarts.clone();
    this.tasksPerRegion = tasksPerRegion;
  }

  @Override
  public int numPartitions() {
    return (regionStarts.length + 1) * tasksPerRegion;
  }

  /** The region index (0-based) of a row. */
  public int region(byte[] row) {
    return region(row, 0, row.length);
  }

  /** The region index (0-based) of the row at {@code offset, length} of {@code buffer}. */
  public int region(byte[] buffer, int offset, int length) {
    int lo = 0;
    int hi = regionStarts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] start = regionStarts[mid];
      if (Bytes.compareTo(buffer, offset, length, start, 0, start.length) >= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  public int regionOfPartition(int partition) {
    return partition / tasksPerRegion;
  }

  public int tasksPerRegion() {
    return tasksPerRegion;
  }

  /** The partition of a {@link ShuffleCell} record. */
  @Override
  public int getPartition(Object key) {
    byte[] k = (byte[]) key;
    int length = ShuffleCell.rowLength(k);
    int offset = ShuffleCell.ROW_OFFSET;
    int sub = 0;
    if (tasksPerRegion > 1) {
      int h = 1;
      for (int i = offset; i < offset + length; i++) {
        h = 31 * h + k[i];
      }
      sub = Math.floorMod(h, tasksPerRegion);
    }
    return region(k, offset, length) * tasksPerRegion + sub;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegionPartitioner p
        && p.tasksPerRegion == tasksPerRegion
        && Arrays.deepEquals(p.regionStarts, regionStarts);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(regionStarts) * 31 + tasksPerRegion;
  }
}
