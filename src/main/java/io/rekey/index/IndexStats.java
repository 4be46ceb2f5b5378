package io.rekey.index;

import io.rekey.common.CountsLine;
import java.io.Serializable;

/**
 * What the entry stage saw in one input partition (or, summed, in all): every row read is indexed,
 * skipped for having no indexed value, or rejected. An update reads the rows whose index columns
 * changed in its window; one that now has no value (deleted, or its value removed) counts as
 * without a value, its entries retired.
 *
 * @param rowsRead source rows read
 * @param rowsIndexed rows that gave one or more entries
 * @param entries entries made (more than rows with {@code all-versions})
 * @param cells cells the entries hold (what the HFiles must contain)
 * @param rowsWithoutValue rows without the indexed value, skipped
 * @param rowsRejected rows whose entry could not be made, in the rejects file
 * @param rowsWithValue rows holding the indexed value (indexed, or rejected for their entry key): 0
 *     of many rows read means the index is on a column no row has
 * @param entriesRetired entries an update removed: their row's value, bound column or covered shape
 *     changed, or the row was deleted (always 0 in a build)
 */
public record IndexStats(
    long rowsRead,
    long rowsIndexed,
    long entries,
    long cells,
    long rowsWithoutValue,
    long rowsRejected,
    long rowsWithValue,
    long entriesRetired)
    implements Serializable {
  public static final IndexStats ZERO = new IndexStats(0, 0, 0, 0, 0, 0, 0, 0);

  public IndexStats plus(IndexStats o) {
    return new IndexStats(
        rowsRead + o.rowsRead,
        rowsIndexed + o.rowsIndexed,
        entries + o.entries,
        cells + o.cells,
        rowsWithoutValue + o.rowsWithoutValue,
        rowsRejected + o.rowsRejected,
        rowsWithValue + o.rowsWithValue,
        entriesRetired + o.entriesRetired);
  }

  /** Whether every row read is accounted for. */
  public boolean addsUp() {
    return rowsRead == rowsIndexed + rowsWithoutValue + rowsRejected;
  }

  /** One line, as stored in the run directory. */
  public String toLine() {
    return CountsLine.of(this);
  }

  public static IndexStats fromLine(String line) {
    return CountsLine.parse(IndexStats.class, line);
  }
}
