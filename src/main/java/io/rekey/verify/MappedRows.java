package io.rekey.verify;

import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;

/**
 * One side of a comparison, row by row, in one task: each row's key in the target's key space (the
 * source's through the key mapping, from the values a normal read returns) and the cells that count
 * ({@link Counted}). Rows must arrive in a read's order; a row may come in several batches.
 */
final class MappedRows {
  private final KeyMapping mapping;
  private final Counted counted;
  private final Counted.Filter filter;

  /**
   * @param mapping the source's key mapping, or null for the target (its keys are already there)
   */
  MappedRows(KeyMapping mapping, Counted counted) {
    this.mapping = mapping;
    this.counted = counted;
    this.filter = counted.filter();
  }

  /** A row under its key in the target's key space, with the cells that count. */
  record Row(byte[] key, List<Cell> cells) {}

  /** The row, or null when the mapping rejects it (rejected rows are not expected anywhere). */
  Row map(Result result) {
    byte[] key = result.getRow();
    if (mapping != null) {
      try {
        key = mapping.map(key, CellVisibility.columns(result, counted.raw()));
      } catch (KeyReject rejected) {
        return null;
      }
    }
    Cell[] cells = result.rawCells();
    List<Cell> out = new ArrayList<>(cells.length);
    for (Cell c : cells) {
      if (filter.counts(c)) {
        out.add(c);
      }
    }
    return new Row(key, out);
  }
}
