package io.rekey.verify;

import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import scala.Tuple2;

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

  /** What a stage makes of one mapped row (the read's result, and the row as mapped), or null. */
  interface Each<T> {
    T of(Result read, Row row);
  }

  /**
   * {@code each} of every row of {@code rows} that maps to a key and holds cells that count, made
   * lazily as the stage consumes them (a task never holds its partition's rows at once); rows for
   * which {@code each} gives null are passed over.
   */
  <T> Iterator<T> each(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows, Each<T> each) {
    return new Iterator<>() {
      private T next;

      @Override
      public boolean hasNext() {
        while (next == null && rows.hasNext()) {
          Result r = rows.next()._2();
          Row row = map(r);
          if (row != null && !row.cells().isEmpty()) {
            next = each.of(r, row);
          }
        }
        return next != null;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        T out = next;
        next = null;
        return out;
      }
    };
  }

  /** The rows of this task so far that the mapping rejected and a read returns cells of. */
  UnmappedRows unmapped() {
    return unmapped;
  }
}
