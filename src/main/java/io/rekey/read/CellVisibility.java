package io.rekey.read;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What a normal read returns of the cells a raw read returns: HBase's delete markers and version
 * limits, applied by code that reads raw. A raw read also returns the cells markers hide and
 * versions past the family's limit, until a flush or compaction drops them, which each table does
 * at its own times: two tables that read the same can differ there. So comparisons of raw reads
 * count the markers and what a read sees, and leave those cells out.
 */
public final class CellVisibility {
  private CellVisibility() {}

  /** Whether {@code marker} hides {@code put}, a Put of the same row. */
  public static boolean hides(Cell marker, Cell put) {
    if (!CellUtil.matchingFamily(marker, put)) {
      return false;
    }
    long ts = put.getTimestamp();
    long at = marker.getTimestamp();
    return switch (marker.getType()) {
      case DeleteFamily -> ts <= at;
      case DeleteFamilyVersion -> ts == at;
      case DeleteColumn -> CellUtil.matchingQualifier(marker, put) && ts <= at;
      case Delete -> CellUtil.matchingQualifier(marker, put) && ts == at;
      default -> false;
    };
  }

  /**
   * The value of {@code family:qualifier} a normal read returns of a row's raw cells, as of {@code
   * below}: the newest Put stamped below it that no marker stamped below it hides; or, with {@code
   * masks} false, the newest Put below it whatever hides it. Null when there is none.
   */
  public static byte[] visibleValue(
      Cell[] rawCells, byte[] family, byte[] qualifier, long below, boolean masks) {
    Cell newest = null;
    for (Cell c : rawCells) {
      if (c.getType() == Cell.Type.Put
          && c.getTimestamp() < below
          && CellUtil.matchingColumn(c, family, qualifier)
          && (newest == null || c.getTimestamp() > newest.getTimestamp())
          && !(masks && hidden(rawCells, c, below))) {
        newest = c;
      }
    }
    return newest == null ? null : CellUtil.cloneValue(newest);
  }

  /**
   * Whether a normal read as of {@code below} returns any cell of a row's raw cells: a Put stamped
   * below it that no marker stamped below it hides.
   */
  public static boolean anyVisible(Cell[] rawCells, long below) {
    for (Cell c : rawCells) {
      if (c.getType() == Cell.Type.Put && c.getTimestamp() < below && !hidden(rawCells, c, below)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hidden(Cell[] cells, Cell put, long below) {
    for (Cell m : cells) {
      if (m.getTimestamp() < below && hides(m, put)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The cells of a row that the column values {@code mapping} reads depend on, in a raw read: its
   * bound columns' Puts and markers, and every family-level marker. {@link #valuesAsOf} over these
   * alone gives what it gives over the whole row, so a wide row's key is worked out without holding
   * the row.
   */
  public static Predicate<Cell> keyCells(KeyMapping mapping) {
    List<byte[][]> columns = new ArrayList<>();
    for (ColumnBinding b : mapping.source().columns()) {
      columns.add(new byte[][] {Bytes.toBytes(b.family()), Bytes.toBytes(b.qualifier())});
    }
    return c -> {
      if (c.getType() == Cell.Type.DeleteFamily || c.getType() == Cell.Type.DeleteFamilyVersion) {
        return true;
      }
      for (byte[][] column : columns) {
        if (CellUtil.matchingColumn(c, column[0], column[1])) {
          return true;
        }
      }
      return false;
    };
  }

  /**
   * The column values a key mapping reads from a row's raw cells as of {@code below} ({@link
   * #visibleValue}, with or without masking).
   */
  public static ColumnValues valuesAsOf(Cell[] rawCells, long below, boolean masks) {
    return (f, q) -> visibleValue(rawCells, Bytes.toBytes(f), Bytes.toBytes(q), below, masks);
  }

  /**
   * The column values a key mapping reads from {@code row}: what a normal read returns, also when
   * {@code row} comes from a raw read (whose first cell of a column may be a delete marker or a Put
   * a marker hides).
   */
  public static ColumnValues columns(Result row, boolean raw) {
    if (!raw) {
      return (f, q) -> row.getValue(Bytes.toBytes(f), Bytes.toBytes(q));
    }
    return valuesAsOf(row.rawCells(), Long.MAX_VALUE, true);
  }

  /** Each family's VERSIONS, by name. */
  public static Map<String, Integer> maxVersions(TableDescriptor table) {
    Map<String, Integer> out = new HashMap<>();
    for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
      out.put(f.getNameAsString(), f.getMaxVersions());
    }
    return out;
  }

  /**
   * Reads the cells of a raw read in its order (a row's markers come before the cells they hide, a
   * column's versions newest first) and says which count: every delete marker, and the Puts a
   * normal read returns. One per task; rows may arrive in several batches.
   */
  public static final class RawRows {
    private final Map<String, Integer> maxVersions;
    // A family's markers come first in it (their qualifier is empty); a column's markers come
    // before the Puts of their timestamp and older. So only these two lists can hide a Put.
    private final List<Cell> familyMarkers = new ArrayList<>();
    private final List<Cell> columnMarkers = new ArrayList<>();
    private byte[] row;
    private Cell column;
    private int versions;

    /**
     * @param maxVersions each family's VERSIONS ({@link #maxVersions(TableDescriptor)}); a family
     *     not in it keeps every version
     */
    public RawRows(Map<String, Integer> maxVersions) {
      this.maxVersions = maxVersions;
    }

    /** Whether {@code cell}, the next cell of the raw read, is a marker or a Put a read returns. */
    public boolean counts(Cell cell) {
      if (row == null || !CellUtil.matchingRows(cell, row)) {
        row = CellUtil.cloneRow(cell);
        column = null;
      }
      if (column == null || !CellUtil.matchingColumn(cell, column)) {
        if (column == null || !CellUtil.matchingFamily(cell, column)) {
          familyMarkers.clear();
        }
        columnMarkers.clear();
        column = cell;
        versions = 0;
      }
      if (CellUtil.isDelete(cell)) {
        boolean family =
            cell.getType() == Cell.Type.DeleteFamily
                || cell.getType() == Cell.Type.DeleteFamilyVersion;
        (family ? familyMarkers : columnMarkers).add(cell);
        return true;
      }
      if (hiddenBy(familyMarkers, cell) || hiddenBy(columnMarkers, cell)) {
        return false;
      }
      versions++;
      Integer max = maxVersions.get(Bytes.toString(CellUtil.cloneFamily(cell)));
      return max == null || versions <= max;
    }

    private static boolean hiddenBy(List<Cell> markers, Cell put) {
      for (Cell m : markers) {
        if (hides(m, put)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Whether a normal read returns any cell of a row read raw in a read's order (in pieces or not):
   * {@link #anyVisible} for a row too wide to hold.
   */
  public static boolean anyVisible(Iterator<Cell> rawRow) {
    RawRows visible = new RawRows(Map.of());
    while (rawRow.hasNext()) {
      Cell c = rawRow.next();
      if (visible.counts(c) && !CellUtil.isDelete(c)) {
        return true;
      }
    }
    return false;
  }
}
