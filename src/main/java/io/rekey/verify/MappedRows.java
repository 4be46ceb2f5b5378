package io.rekey.verify;

import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One side of a comparison, row by row, in one task: each row's key in the target's key space (the
 * source's through the key mapping, from the values a normal read returns) and the cells that count
 * ({@link Counted}). Rows the mapping rejects that hold cells that count are tallied ({@link
 * #unmapped()}), once per row. Rows must arrive in a read's order; a row may come in several
 * batches.
 */
final class MappedRows {
  private final KeyMapping mapping;
  private final Counted.Filter filter;
  private final boolean raw;
  private final KeySet leftOut;
  private UnmappedRows unmapped = UnmappedRows.NONE;
  private byte[] lastUnmapped;

  /**
   * @param mapping the source's key mapping, or null for the target (its keys are already there)
   */
  MappedRows(KeyMapping mapping, Counted counted) {
    this.mapping = mapping;
    this.filter = counted.filter();
    this.raw = counted.raw();
    this.leftOut = counted.leftOut();
  }

  /** A row under its key in the target's key space, with the cells that count. */
  record Row(byte[] key, List<Cell> cells) {}

  /**
   * The row, or null when the mapping rejects it (it is then not expected anywhere, and counted in
   * {@link #unmapped()} when a read returns any of its cells) or its key is one the comparison
   * leaves out ({@link Counted#leftOut()}).
   */
  Row map(Result result) {
    // Every cell goes through the filter, in order, whatever becomes of the row.
    Cell[] cells = result.rawCells();
    List<Cell> out = new ArrayList<>(cells.length);
    for (Cell c : cells) {
      if (filter.counts(c)) {
        out.add(c);
      }
    }
    byte[] key = result.getRow();
    if (mapping != null) {
      try {
        key = mapping.map(key, CellVisibility.columns(result, raw));
      } catch (KeyReject rejected) {
        tally(result.getRow(), out, rejected);
        return null;
      }
    }
    return leftOut.contains(key) ? null : new Row(key, out);
  }

  private void tally(byte[] row, List<Cell> counted, KeyReject rejected) {
    boolean readable = false;
    for (Cell c : counted) {
      readable |= c.getType() == Cell.Type.Put;
    }
    if (!readable || Arrays.equals(row, lastUnmapped)) {
      return; // nothing a read returns, or a later batch of a row already counted
    }
    lastUnmapped = row;
    unmapped =
        unmapped.plus(
            UnmappedRows.of(
                Bytes.toStringBinary(row), rejected.reason().name(), rejected.detail()));
  }

  /** The rows of this task so far that the mapping rejected and a read returns cells of. */
  UnmappedRows unmapped() {
    return unmapped;
  }
}
