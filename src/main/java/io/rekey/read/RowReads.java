package io.rekey.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
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
 * seeks from row to row, so the region servers read only those rows (a Get cannot read raw).
 */
public final class RowReads {
  /** How many rows one scan asks for. */
  public static final int BATCH = 256;

  private RowReads() {}

  /**
   * The rows of {@code keys} that exist, by key.
   *
   * @param raw read delete markers and the cells they hide too
   * @param below read only cells stamped below this
   */
  public static TreeMap<byte[], Cell[]> read(
      Table table, List<byte[]> keys, boolean raw, long below) throws IOException {
    TreeMap<byte[], Cell[]> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    if (keys.isEmpty()) {
      return out;
    }
    try (ResultScanner s = table.getScanner(scan(keys, raw, 0, below, null))) {
      for (Result r : s) {
        out.put(r.getRow(), r.rawCells());
      }
    }
    return out;
  }

  /**
   * The rows of {@code keys} that hold a cell (a Put or a delete marker) stamped at or after {@code
   * since}: one cell a row, from the store files the time range does not skip.
   */
  public static java.util.TreeSet<byte[]> changedSince(Table table, List<byte[]> keys, long since)
      throws IOException {
    java.util.TreeSet<byte[]> out = new java.util.TreeSet<>(Bytes.BYTES_COMPARATOR);
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
        .setCacheBlocks(false)
        .setCaching(BATCH)
        .setFilter(more == null ? rows : new FilterList(rows, more));
  }
}
