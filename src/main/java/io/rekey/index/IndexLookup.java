package io.rekey.index;

import io.rekey.common.JsonResult;
import io.rekey.common.RekeyException;
import io.rekey.index.entries.IndexKey;
import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyRange;
import io.rekey.keys.KeyReject;
import io.rekey.keys.ScanPlanner;
import io.rekey.run.RunState;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads an index the way an application would: plan the key ranges of one value (one per salt
 * bucket when the salt does not cover the value, narrowed by a time range on the reversed
 * timestamp), scan them, merge newest first, and fetch the source rows in batches. No Spark.
 */
public final class IndexLookup {
  private static final int FETCH_BATCH = 100;
  private static final int SHOWN_VALUE_CHARS = 60;

  private final Connection connection;
  private final IndexDefinition definition;

  public IndexLookup(Connection connection, IndexDefinition definition) {
    this.connection = connection;
    this.definition = definition;
  }

  /**
   * One entry found, with its source row.
   *
   * @param time the entry's time, ISO-8601
   * @param ts the entry's time (epoch millis)
   * @param sourceKey the source row the entry points at, printable
   * @param columns the source row's newest values, {@code family:qualifier -> value} (shortened)
   * @param note what is wrong with the entry, or null when the source row agrees with it
   */
  public record Hit(
      String time, long ts, String sourceKey, Map<String, String> columns, String note) {}

  /**
   * What {@code index lookup} found: one value's newest entries, each with its source row.
   *
   * @param index the index table
   * @param value the value looked up
   * @param from the oldest entry time asked for (epoch millis), or null
   * @param to the newest entry time asked for (epoch millis), or null
   * @param ranges the key ranges scanned (salt buckets)
   * @param entries every entry of the value in the time range (not only those shown)
   * @param newest the newest entries, newest first, with their source rows
   * @param sourceRows rows of the source with the value, counted by a filter scan, or null when not
   *     asked
   * @param seconds wall time of the lookup
   */
  public record Result(
      String index,
      String value,
      Long from,
      Long to,
      int ranges,
      long entries,
      List<Hit> newest,
      Long sourceRows,
      double seconds)
      implements JsonResult {
    public Result {
      newest = List.copyOf(newest);
    }
  }

  /**
   * @param from the oldest timestamp included, or null
   * @param to the first timestamp excluded, or null
   * @param limit entries shown (and source rows fetched), newest first
   * @param checkSource also count the source rows with the value, by a full filter scan
   */
  public Result lookup(String value, Long from, Long to, int limit, boolean checkSource) {
    long t0 = System.nanoTime();
    // A lookup planned for another key shape than the index holds would find nothing, silently.
    RunState state = new RunState(connection, definition.stateTable(), definition.indexTable());
    String pinned = state.pinnedDefinitionIfAny();
    definition.requireSame(pinned, "index lookup");
    if (pinned != null && state.watermark().isEmpty()) {
      // Pinned before its load, the watermark moved after it: a build that never finished.
      throw new RekeyException(
          "the index "
              + definition.indexTable()
              + " has no completed build: the last 'index build' did not finish (there is no"
              + " watermark for it in "
              + definition.stateTable()
              + "), so it may hold only part of its entries. Run 'index build' again, then look"
              + " up");
    }
    Map<String, ScanPlanner.NumberRange> times = new LinkedHashMap<>();
    if (from != null || to != null) {
      times.put(
          IndexKey.TS,
          new ScanPlanner.NumberRange(from == null ? 0 : from, to == null ? Long.MAX_VALUE : to));
    }
    List<KeyRange> ranges;
    try {
      ranges =
          ScanPlanner.plan(
              definition.key().layout(), Map.of(IndexKey.VALUE, FieldValue.of(value)), times);
    } catch (IllegalArgumentException e) {
      throw new RekeyException("cannot plan the lookup of '" + value + "': " + e.getMessage());
    }
    List<IndexKey.Entry> newest = new ArrayList<>();
    byte[] wanted = Bytes.toBytes(value);
    long count = 0;
    try (Table index = connection.getTable(definition.indexTable())) {
      for (KeyRange range : ranges) {
        Scan scan =
            new Scan()
                .withStartRow(range.start())
                .withStopRow(range.stop())
                // The entries only, not the row records (keyed by source key, in the same table).
                .addFamily(Bytes.toBytes(definition.family()))
                .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
                .setCaching(1000);
        try (ResultScanner s = index.getScanner(scan)) {
          int kept = 0;
          for (org.apache.hadoop.hbase.client.Result r : s) {
            IndexKey.Entry e = decode(r.getRow());
            // A layout that does not start with the value is scanned whole: keep its entries.
            if (!Arrays.equals(e.value(), wanted) || !inRange(e.ts(), from, to)) {
              continue;
            }
            count++;
            if (kept++ < limit) {
              newest.add(e);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the index " + definition.indexTable() + ": " + e.getMessage(), e);
    }
    newest.sort(Comparator.comparingLong(IndexKey.Entry::ts).reversed());
    List<IndexKey.Entry> shown = newest.subList(0, Math.min(limit, newest.size()));
    List<Hit> hits = fetch(shown, value);
    Long sourceRows = checkSource ? countSource(value, from, to) : null;
    return new Result(
        definition.indexTable().getNameAsString(),
        value,
        from,
        to,
        ranges.size(),
        count,
        hits,
        sourceRows,
        Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
  }

  private IndexKey.Entry decode(byte[] key) {
    try {
      return definition.key().decode(key);
    } catch (KeyReject e) {
      throw new RekeyException(
          "the index "
              + definition.indexTable()
              + " holds the key "
              + Bytes.toStringBinary(key)
              + ", which its index-key layout cannot read ("
              + e
              + "); is the definition the one the index was built with?");
    }
  }

  private static boolean inRange(long ts, Long from, Long to) {
    return (from == null || ts >= from) && (to == null || ts < to);
  }

  /** The source rows of the entries, fetched in batches. */
  private List<Hit> fetch(List<IndexKey.Entry> entries, String value) {
    List<Hit> hits = new ArrayList<>();
    try (Table source = connection.getTable(definition.source())) {
      for (int i = 0; i < entries.size(); i += FETCH_BATCH) {
        List<IndexKey.Entry> batch = entries.subList(i, Math.min(entries.size(), i + FETCH_BATCH));
        List<Get> gets = new ArrayList<>();
        for (IndexKey.Entry e : batch) {
          gets.add(new Get(e.sourceKey()));
        }
        org.apache.hadoop.hbase.client.Result[] rows = source.get(gets);
        for (int j = 0; j < batch.size(); j++) {
          hits.add(hit(batch.get(j), rows[j], value));
        }
      }
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the source " + definition.source() + ": " + e.getMessage(), e);
    }
    return hits;
  }

  private Hit hit(IndexKey.Entry e, org.apache.hadoop.hbase.client.Result row, String value) {
    Map<String, String> columns = new LinkedHashMap<>();
    String note = null;
    if (row == null || row.isEmpty()) {
      note = "the source row is gone: an orphan entry ('index scrutiny --repair' removes it)";
    } else {
      for (Cell c : row.rawCells()) {
        String v = Bytes.toStringBinary(CellUtil.cloneValue(c));
        columns.put(
            Bytes.toString(CellUtil.cloneFamily(c))
                + ":"
                + Bytes.toString(CellUtil.cloneQualifier(c)),
            v.length() > SHOWN_VALUE_CHARS ? v.substring(0, SHOWN_VALUE_CHARS) + "..." : v);
      }
      if (definition.column() != null) {
        byte[] now =
            row.getValue(
                Bytes.toBytes(definition.column().family()),
                Bytes.toBytes(definition.column().qualifier()));
        if (now == null
            || !Bytes.toStringBinary(now).equals(Bytes.toStringBinary(Bytes.toBytes(value)))) {
          note =
              "stale: the source's "
                  + definition.column()
                  + " is now "
                  + (now == null ? "gone" : "'" + Bytes.toStringBinary(now) + "'")
                  + " ('index scrutiny --repair' fixes it)";
        }
      }
    }
    return new Hit(
        // A key field's entry has no time (IndexEntries.FIELD_TS).
        definition.field() != null ? "-" : Instant.ofEpochMilli(e.ts()).toString(),
        e.ts(),
        Bytes.toStringBinary(e.sourceKey()),
        columns,
        note);
  }

  /** Source rows whose indexed column holds the value (in the time range), by a filter scan. */
  private long countSource(String value, Long from, Long to) {
    if (definition.column() == null) {
      throw new RekeyException(
          "--check-source needs an index on a column; this one is on " + definition.valueName());
    }
    byte[] family = Bytes.toBytes(definition.column().family());
    byte[] qualifier = Bytes.toBytes(definition.column().qualifier());
    SingleColumnValueFilter filter =
        new SingleColumnValueFilter(family, qualifier, CompareOperator.EQUAL, Bytes.toBytes(value));
    filter.setFilterIfMissing(true);
    filter.setLatestVersionOnly(true);
    Scan scan =
        new Scan()
            .addColumn(family, qualifier)
            .setFilter(filter)
            .setCaching(1000)
            .setCacheBlocks(false);
    long n = 0;
    try (Table source = connection.getTable(definition.source());
        ResultScanner s = source.getScanner(scan)) {
      for (org.apache.hadoop.hbase.client.Result r : s) {
        Cell c = r.getColumnLatestCell(family, qualifier);
        if (c != null && inRange(c.getTimestamp(), from, to)) {
          n++;
        }
      }
    } catch (IOException e) {
      throw new RekeyException(
          "cannot scan the source " + definition.source() + ": " + e.getMessage(), e);
    }
    return n;
  }
}
