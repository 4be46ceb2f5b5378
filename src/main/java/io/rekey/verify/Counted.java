package io.rekey.verify;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.SharedOptions;
import io.rekey.read.CellVisibility;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * Which cells of one side's rows a comparison counts, and so how that side is read.
 *
 * <p>A normal read counts every cell it returns. A raw read returns delete markers and the cells
 * they hide, so what a normal read would return is worked out from it ({@link
 * CellVisibility.RawRows}); the markers themselves count only for a raw comparison. Reading raw
 * below a time {@code T} is how a side is seen as of {@code T}: a normal read with a time range
 * still applies markers stamped at or after {@code T}, so a row deleted after {@code T} would look
 * missing on the side that has the marker.
 *
 * @param maxVersions each family's VERSIONS when the side is read raw, or null for a normal read
 * @param markers whether delete markers count (a raw comparison)
 * @param leftOut the target keys whose rows do not count at all (on the source side, the rows that
 *     map to them): rows that cannot be compared as of a time ({@link ChangedSince})
 */
public record Counted(HashMap<String, Integer> maxVersions, boolean markers, KeySet leftOut)
    implements Serializable {
  /** Every cell a normal read returns. */
  public static Counted everyCell() {
    return new Counted(null, false, KeySet.NONE);
  }

  /** From a raw read: the markers and the Puts a normal read returns. */
  public static Counted markersAndVisible(TableDescriptor table) {
    return new Counted(new HashMap<>(CellVisibility.maxVersions(table)), true, KeySet.NONE);
  }

  /** From a raw read: the Puts a normal read returns, without the markers. */
  public static Counted visible(TableDescriptor table) {
    return new Counted(new HashMap<>(CellVisibility.maxVersions(table)), false, KeySet.NONE);
  }

  /** The same, with the rows under {@code keys} left out. */
  public Counted leavingOut(KeySet keys) {
    return new Counted(maxVersions, markers, keys);
  }

  /**
   * A filter for one task's cells in a read's order (a row may come in several batches): whether
   * each counts.
   */
  public Filter filter() {
    return new Filter(this);
  }

  /** The cells of one whole row that count. */
  public List<Cell> cellsOfRow(Cell[] row) {
    if (!raw()) {
      return Arrays.asList(row);
    }
    Filter f = filter();
    List<Cell> out = new ArrayList<>(row.length);
    for (Cell c : row) {
      if (f.counts(c)) {
        out.add(c);
      }
    }
    return out;
  }

  /** Whether each cell of a read counts; see {@link #filter()}. */
  public static final class Filter {
    private final boolean markers;
    private final CellVisibility.RawRows raw;

    private Filter(Counted counted) {
      this.markers = counted.markers();
      this.raw = counted.raw() ? new CellVisibility.RawRows(counted.maxVersions()) : null;
    }

    public boolean counts(Cell c) {
      return raw == null || (raw.counts(c) && (markers || !CellUtil.isDelete(c)));
    }
  }

  /** Whether the side is read raw. */
  public boolean raw() {
    return maxVersions != null;
  }

  /**
   * How to read {@code table} as of a time: a raw comparison reads raw; otherwise raw too when a
   * time bounds the read and no family keeps HBase's {@code NEW_VERSION_BEHAVIOR} (whose masking
   * depends on write order, which a raw read does not show), else normally.
   */
  public static Counted of(TableDescriptor table, boolean rawComparison, Long below) {
    if (rawComparison) {
      return markersAndVisible(table);
    }
    if (below == null || newVersionBehavior(table)) {
      return everyCell();
    }
    return visible(table);
  }

  /**
   * Refuses, in one line naming the family and the fix, a raw copy or comparison of a table with a
   * family that keeps HBase's {@code NEW_VERSION_BEHAVIOR}. There a marker hides only the cells
   * written before it, and a raw read does not show that order: copied into one HFile, a marker and
   * a Put written after it share a sequence id, and the Put is hidden in the target while the
   * source shows it; a raw comparison, working out what a read returns from the raw cells, would
   * find both sides equal.
   */
  public static void requireRawReadable(TableDescriptor table) {
    ColumnFamilyDescriptor f = orderDependentFamily(table);
    if (f != null) {
      throw InvalidOptionException.of(
          SharedOptions.RAW.name(),
          "true",
          "the family "
              + f.getNameAsString()
              + " of "
              + table.getTableName().getNameAsString()
              + " keeps NEW_VERSION_BEHAVIOR, where what a delete marker hides depends on the"
              + " order cells were written in, which neither a raw copy into HFiles nor a raw"
              + " comparison keeps: leave out --raw (the copy and verify then take what a read"
              + " returns), or first alter '"
              + table.getTableName().getNameAsString()
              + "', {NAME => '"
              + f.getNameAsString()
              + "', NEW_VERSION_BEHAVIOR => false}");
    }
  }

  static boolean newVersionBehavior(TableDescriptor table) {
    return orderDependentFamily(table) != null;
  }

  /** The first family that keeps {@code NEW_VERSION_BEHAVIOR}, or null. */
  private static ColumnFamilyDescriptor orderDependentFamily(TableDescriptor table) {
    for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
      if (f.isNewVersionBehavior()) {
        return f;
      }
    }
    return null;
  }
}
