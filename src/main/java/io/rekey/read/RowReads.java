package io.rekey.read;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads a batch of rows by key in one scan, every version, raw or not, below a time: a filter that
 * seeks from row to row, so the region servers read only those rows (a Get cannot read raw), and
 * keep the blocks they load in their block cache for the next read of the same rows.
 */
public final class RowReads {
  /** How many rows one scan asks for. */
  public static final int BATCH = 256;

  private RowReads() {}

  /**
   * The rows of {@code keys} read whole, by key, and the keys of the rows too wide to hold: those
   * of more than {@code widerThan} cells (read them with {@link #cells}, a piece at a time). The
   * scan returns at most {@code widerThan} cells a result, so no row is held whole while it is read
   * and a wide row is not refused by the region server's {@code hbase.table.max.rowsize}.
   *
   * @param raw read delete markers and the cells they hide too
   * @param below read only cells stamped below this
   */
  public static Rows read(Table table, List<byte[]> keys, boolean raw, long below, int widerThan)
      throws IOException {
    TreeMap<byte[], Cell[]> whole = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    TreeSet<byte[]> wide = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    if (keys.isEmpty()) {
      return new Rows(whole, wide);
    }
    try (ResultScanner s = table.getScanner(scan(keys, raw, 0, below, null).setBatch(widerThan))) {
      for (Result r : s) {
        byte[] row = r.getRow();
        if (wide.contains(row)) {
          continue;
        }
        if (whole.remove(row) != null) {
          wide.add(row);
        } else {
          whole.put(row, r.rawCells());
        }
      }
    }
    return new Rows(whole, wide);
  }

  /**
   * Rows read by {@link #read}.
   *
   * @param whole the rows held whole, by key (a key with no cells is absent)
   * @param wide the keys of rows with more cells than a piece holds
   */
  public record Rows(TreeMap<byte[], Cell[]> whole, TreeSet<byte[]> wide) {
    /** The row's cells, or none; never for a wide row. */
    public Cell[] get(byte[] key) {
      return whole.getOrDefault(key, new Cell[0]);
    }
  }

  /**
   * One row's cells in a read's order, read {@code piece} cells at a time: at most one piece held.
   * Close it when done.
   *
   * @param raw read delete markers and the cells they hide too
   * @param below read only cells stamped below this
   */
  public static RowCells cells(Table table, byte[] key, boolean raw, long below, int piece)
      throws IOException {
    Scan scan =
        new Scan()
            .withStartRow(key)
            .withStopRow(key, true)
            .setRaw(raw)
            .readAllVersions()
            .setTimeRange(0, below)
            .setCacheBlocks(false)
            .setCaching(1)
            .setBatch(piece);
    return new RowCells(table.getScanner(scan));
  }

  /**
   * The cells of one row that {@code keep} accepts, read a piece at a time: a wide row's few cells
   * that matter (e.g. {@link CellVisibility#keyCells}) without holding the row.
   */
  public static Cell[] kept(
      Table table, byte[] key, boolean raw, long below, int piece, Predicate<Cell> keep)
      throws IOException {
    List<Cell> out = new ArrayList<>();
    try (RowCells cells = cells(table, key, raw, below, piece)) {
      cells.forEachRemaining(
          c -> {
            if (keep.test(c)) {
              out.add(c);
            }
          });
    }
    return out.toArray(new Cell[0]);
  }

  /** The cells of one row, a piece at a time; see {@link #cells}. */
  public static final class RowCells implements Iterator<Cell>, Closeable {
    private final ResultScanner scanner;
    private Cell[] piece = new Cell[0];
    private int next;
    private boolean done;

    private RowCells(ResultScanner scanner) {
      this.scanner = scanner;
    }

    @Override
    public boolean hasNext() {
      while (next == piece.length && !done) {
        Result r;
        try {
          r = scanner.next();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read the next cells of a wide row", e);
        }
        if (r == null) {
          done = true;
          scanner.close();
        } else {
          piece = r.rawCells();
          next = 0;
        }
      }
      return next < piece.length;
    }

    @Override
    public Cell next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return piece[next++];
    }

    /** The next cell without taking it, or null at the end. */
    public Cell peek() {
      return hasNext() ? piece[next] : null;
    }

    @Override
    public void close() {
      scanner.close();
    }
  }

  /**
   * The rows of {@code keys} that hold a cell (a Put or a delete marker) stamped at or after {@code
   * since}: one cell a row, from the store files the time range does not skip.
   */
  public static TreeSet<byte[]> changedSince(Table table, List<byte[]> keys, long since)
      throws IOException {
    TreeSet<byte[]> out = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    if (keys.isEmpty()) {
      return out;
    }
    try (ResultScanner s =
        table.getScanner(scan(keys, true, since, Long.MAX_VALUE, new FirstKeyOnlyFilter()))) {
      for (Result r : s) {
        out.add(r.getRow());
      }
    }
    return out;
  }

  private static Scan scan(List<byte[]> keys, boolean raw, long from, long below, Filter more)
      throws IOException {
    List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>(keys.size());
    byte[] first = null;
    byte[] last = null;
    for (byte[] k : keys) {
      ranges.add(new MultiRowRangeFilter.RowRange(k, true, k, true));
      first = first == null || Bytes.compareTo(k, first) < 0 ? k : first;
      last = last == null || Bytes.compareTo(k, last) > 0 ? k : last;
    }
    Filter rows = new MultiRowRangeFilter(ranges);
    return new Scan()
        .withStartRow(first)
        .withStopRow(last, true)
        .setRaw(raw)
        .readAllVersions()
        .setTimeRange(from, below)
        // The same rows are read two or three times in a row (repair: the target as read, then
        // raw), and a batch is a few hundred rows, not a scan that would push the cache out: the
        // blocks the first read loads serve the next. In bench-sync (4,000 differing rows) the
        // target's raw read of a batch took 6-26 ms after its first read with the blocks kept,
        // 27-110 ms without; a repair's reads, 4.1 s of task time against 5.5 s.
        .setCacheBlocks(true)
        .setCaching(BATCH)
        .setFilter(more == null ? rows : new FilterList(rows, more));
  }
}
