package io.rekey.verify;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import io.rekey.read.RowReads;
import io.rekey.read.SourceReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Table;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The target keys whose rows cannot be compared as of a time {@code T}: those where either side
 * holds a cell (a Put or a delete marker) stamped at or after {@code T}. What a read shows of such
 * a row as of {@code T} is not always knowable: a normal read applies markers stamped after {@code
 * T}, a family that keeps fewer versions drops the older ones at its next flush, and a {@code
 * NEW_VERSION_BEHAVIOR} family masks by write order, which no read shows. Every other row has
 * nothing stamped at or after {@code T}, so reading it below {@code T} is reading it as of {@code
 * T}, exactly, on any table.
 *
 * <p>Each side is read raw with the time range {@code [T, now]} and one cell per row: region
 * servers skip every store file older than {@code T}, so the cost is that of the recent writes. A
 * source row found there is left out under the key it had as of {@code T} (from its stored history
 * below {@code T} when the key depends on a column).
 */
public final class ChangedSince {
  private ChangedSince() {}

  /**
   * The target keys of rows of {@code source} (through {@code mapping}) or {@code target} changed
   * at or after {@code until}.
   */
  public static KeySet find(
      JavaSparkContext sc,
      Configuration conf,
      TableName source,
      TableName target,
      KeyMapping mapping,
      long until,
      int piece) {
    sc.setJobGroup(
        "changed-since",
        "rows of " + source + " and " + target + " with cells stamped at or after " + until,
        false);
    try {
      JavaRDD<byte[]> targetKeys = rowsFrom(sc, conf, target, until);
      JavaRDD<byte[]> sourceKeys =
          rowsFrom(sc, conf, source, until)
              .mapPartitions(
                  new KeysAsOf(
                      mapping,
                      source.getNameAsString(),
                      until,
                      piece,
                      new ShippedConfiguration(conf)));
      return KeySet.of(sourceKeys.union(targetKeys).collect());
    } finally {
      sc.clearJobGroup();
    }
  }

  private static JavaRDD<byte[]> rowsFrom(
      JavaSparkContext sc, Configuration conf, TableName table, long until) {
    return SourceReader.live(sc, conf, table, SourceReader.stampedFrom(until))
        .map(t -> t._2().getRow());
  }

  /** Each changed source row's key in the target as of {@code until}, if it had one. */
  private static final class KeysAsOf
      implements org.apache.spark.api.java.function.FlatMapFunction<Iterator<byte[]>, byte[]> {
    private static final long serialVersionUID = 1L;
    private final KeyMapping mapping;
    private final String source;
    private final long until;
    private final int piece;
    private final ShippedConfiguration conf;

    KeysAsOf(KeyMapping mapping, String source, long until, int piece, ShippedConfiguration conf) {
      this.mapping = mapping;
      this.source = source;
      this.until = until;
      this.piece = piece;
      this.conf = conf;
    }

    @Override
    public Iterator<byte[]> call(Iterator<byte[]> rows) throws IOException {
      List<byte[]> out = new ArrayList<>();
      List<byte[]> batch = new ArrayList<>(RowReads.BATCH);
      while (rows.hasNext()) {
        batch.add(rows.next());
        if (batch.size() == RowReads.BATCH || !rows.hasNext()) {
          map(batch, out);
          batch.clear();
        }
      }
      return out.iterator();
    }

    private void map(List<byte[]> batch, List<byte[]> out) {
      if (mapping.source().columns().isEmpty()) {
        for (byte[] row : batch) {
          add(row, ColumnValues.NONE, out);
        }
        return;
      }
      try (Table t = ExecutorConnections.get(conf).getTable(TableName.valueOf(source))) {
        RowReads.Rows histories = RowReads.read(t, batch, true, until, piece);
        histories
            .whole()
            .forEach((row, cells) -> add(row, CellVisibility.valuesAsOf(cells, until, true), out));
        for (byte[] row : histories.wide()) {
          Cell[] kept = RowReads.kept(t, row, true, until, piece, CellVisibility.keyCells(mapping));
          add(row, CellVisibility.valuesAsOf(kept, until, true), out);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read the history of " + batch.size() + " rows of " + source, e);
      }
    }

    private void add(byte[] row, ColumnValues values, List<byte[]> out) {
      try {
        out.add(mapping.map(row, values));
      } catch (KeyReject rejected) {
        // No key as of then: the row is in no region of the comparison.
      }
    }
  }
}
