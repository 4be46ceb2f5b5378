package io.rekey.rekey;

import io.rekey.common.CountsLine;
import java.io.Serializable;

/**
 * What a sync window's map stage saw and made, per input partition or summed. The window's cells
 * add up: {@code cellsRead = cellsWritten + cellsRejected}; what goes to the writers is {@link
 * #cellsOut()}, which a move makes larger than what was read (the whole row, and a marker for each
 * cell it leaves behind).
 *
 * @param rowsRead source rows with cells in the window
 * @param cellsRead cells read in the window (delete markers included)
 * @param deletesRead delete markers among the cells read (every kind)
 * @param rowsRejected rows whose key could not be mapped
 * @param cellsRejected the cells of the rejected rows
 * @param cellsWritten cells of the window that reach the target (under the row's key, or inside a
 *     moved row)
 * @param rowsMoved rows whose key changed in the window, written whole under the new key
 * @param cellsMoved cells of those rows written under their new keys (all they store)
 * @param cellsRetired version delete markers written under the old keys of moved rows and of
 *     rejected rows that lost their key
 * @param cellsMapped cells of the window written as they were, under the row's key
 */
public record SyncStats(
    long rowsRead,
    long cellsRead,
    long deletesRead,
    long rowsRejected,
    long cellsRejected,
    long cellsWritten,
    long rowsMoved,
    long cellsMoved,
    long cellsRetired,
    long cellsMapped)
    implements Serializable {
  public static final SyncStats ZERO = new SyncStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** Cells handed to the writers. */
  public long cellsOut() {
    return cellsMapped + cellsMoved + cellsRetired;
  }

  /** Whether every cell read was written or rejected. */
  public boolean addsUp() {
    return cellsRead == cellsWritten + cellsRejected;
  }

  public SyncStats plus(SyncStats o) {
    return new SyncStats(
        rowsRead + o.rowsRead,
        cellsRead + o.cellsRead,
        deletesRead + o.deletesRead,
        rowsRejected + o.rowsRejected,
        cellsRejected + o.cellsRejected,
        cellsWritten + o.cellsWritten,
        rowsMoved + o.rowsMoved,
        cellsMoved + o.cellsMoved,
        cellsRetired + o.cellsRetired,
        cellsMapped + o.cellsMapped);
  }

  /** One line, as stored in the run directory. */
  public String toLine() {
    return CountsLine.of(this);
  }

  public static SyncStats fromLine(String line) {
    return CountsLine.parse(SyncStats.class, line);
  }
}
