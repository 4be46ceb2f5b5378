package io.rekey.hbase;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.RandomRowFilter;

/**
 * A random sample of about {@code n} rows of a table, read through the region servers: what split
 * points of a new table are planned from. The rate comes from a key-only count (stopping at a
 * million rows: past that the rate is small either way).
 */
public final class RowSampler {
  private static final int COUNT_LIMIT = 1_000_000;

  private RowSampler() {}

  /**
   * Feeds about {@code n} random rows of {@code table} to {@code sink}.
   *
   * @param scan what to read of each row (its columns); its filter, if any, is kept
   */
  public static void sample(
      Connection connection, TableName table, Scan scan, int n, Consumer<Result> sink) {
    long rows = estimateRows(connection, table);
    float chance = rows <= n ? 1f : (float) n / rows;
    Filter random = new RandomRowFilter(chance);
    scan.setFilter(scan.getFilter() == null ? random : new FilterList(random, scan.getFilter()));
    scan.setCaching(1000).setCacheBlocks(false);
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        sink.accept(r);
      }
    } catch (IOException e) {
      throw new RekeyException("cannot sample rows of " + table + ": " + e.getMessage(), e);
    }
  }

  /** A scan that reads each row's key and nothing else. */
  public static Scan keysOnly() {
    return new Scan().setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
  }

  /** The rows of {@code table}, counted up to a million. */
  static long estimateRows(Connection connection, TableName table) {
    Scan scan = keysOnly().setCaching(10_000).setCacheBlocks(false).setLimit(COUNT_LIMIT);
    long n = 0;
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(scan)) {
      while (scanner.next() != null) {
        n++;
      }
    } catch (IOException e) {
      throw new RekeyException("cannot count rows of " + table + ": " + e.getMessage(), e);
    }
    return n;
  }
}
