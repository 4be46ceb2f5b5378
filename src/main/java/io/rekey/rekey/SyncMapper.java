package io.rekey.rekey;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.read.RowReads;
import io.rekey.write.PartitionRecords;
import io.rekey.write.RowsToCells;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The map stage of a sync window: each source row's window cells through {@link WindowMapping}.
 * When the key depends on a column, the rows of the window are taken {@value #HISTORY_BATCH} at a
 * time and their stored history is read raw in one scan (a filter that seeks from row to row), on
 * the executor's shared connection. Rejected rows go to the partition's rejects file with the
 * reason; the partition's counts ({@link SyncStats}) are written when it is done.
 */
final class SyncMapper
    implements Function2<
        Integer,
        Iterator<Tuple2<ImmutableBytesWritable, Result>>,
        Iterator<Tuple2<byte[], byte[]>>> {
  private static final long serialVersionUID = 1L;
  static final int HISTORY_BATCH = RowReads.BATCH;

  private final WindowMapping mapping;
  private final String source;
  private final long to;
  private final String runDir;
  private final ShippedConfiguration conf;
  private final LongAccumulator rowsRejectedProgress;

  /**
   * @param source the source table, read again for the rows' histories
   * @param to the window's end: histories are read below it
   */
  SyncMapper(
      WindowMapping mapping,
      String source,
      long to,
      String runDir,
      ShippedConfiguration conf,
      LongAccumulator rowsRejectedProgress) {
    this.mapping = mapping;
    this.source = source;
    this.to = to;
    this.runDir = runDir;
    this.conf = conf;
    this.rowsRejectedProgress = rowsRejectedProgress;
  }

  @Override
  public Iterator<Tuple2<byte[], byte[]>> call(
      Integer partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    return new PartitionIterator(partition, rows);
  }

  private final class PartitionIterator extends RowsToCells {
    private final PartitionRecords records;
    private SyncStats stats = SyncStats.ZERO;
    private byte[] lastRow;
    private boolean lastRowRejected;

    PartitionIterator(int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      super(rows);
      this.records = new PartitionRecords(conf, runDir, partition);
    }

    @Override
    protected void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      if (!mapping.needsHistory()) {
        Result r = rows.next()._2();
        map(r.getRow(), r.rawCells(), null);
        return;
      }
      List<Result> batch = new ArrayList<>(HISTORY_BATCH);
      while (batch.size() < HISTORY_BATCH && rows.hasNext()) {
        batch.add(rows.next()._2());
      }
      TreeMap<byte[], Cell[]> histories = histories(batch);
      for (Result r : batch) {
        Cell[] history = histories.get(r.getRow());
        map(r.getRow(), r.rawCells(), history == null ? new Cell[0] : history);
      }
    }

    /** The stored cells of {@code batch}'s rows below the window's end, raw, in one scan. */
    private TreeMap<byte[], Cell[]> histories(List<Result> batch) {
      List<byte[]> keys = new ArrayList<>(batch.size());
      for (Result r : batch) {
        keys.add(r.getRow());
      }
      try (Table t = ExecutorConnections.get(conf).getTable(TableName.valueOf(source))) {
        return RowReads.read(t, keys, true, to);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read the history of " + batch.size() + " rows of " + source, e);
      }
    }

    private void map(byte[] row, Cell[] window, Cell[] history) {
      // A wide row read in batches (keys without bound columns only) is counted, and rejected,
      // once.
      boolean sameRow = lastRow != null && Arrays.equals(lastRow, row);
      long deletes = 0;
      for (Cell c : window) {
        deletes += CellUtil.isDelete(c) ? 1 : 0;
      }
      WindowMapping.Outcome outcome = mapping.map(row, window, history);
      SyncStats s;
      if (outcome instanceof WindowMapping.Rejected rejected) {
        boolean newReject = !(sameRow && lastRowRejected);
        if (newReject) {
          rowsRejectedProgress.add(1);
          records.reject(rejected.reason(), rejected.detail(), row);
        }
        // A row that lost its key leaves the keys it had: no stale copy stays in the target.
        for (WindowMapping.Retired retired : rejected.retired()) {
          emit(retired.oldKey(), retired.markers());
        }
        s =
            new SyncStats(
                sameRow ? 0 : 1,
                window.length,
                deletes,
                newReject ? 1 : 0,
                window.length,
                0,
                0,
                0,
                rejected.retiredCells(),
                0);
      } else if (outcome instanceof WindowMapping.Moved moved) {
        emit(moved.newKey(), moved.wholeRow());
        for (WindowMapping.Retired retired : moved.retired()) {
          emit(retired.oldKey(), retired.markers());
        }
        s =
            new SyncStats(
                1,
                window.length,
                deletes,
                0,
                0,
                window.length,
                1,
                moved.wholeRow().length,
                moved.retiredCells(),
                0);
      } else {
        WindowMapping.Mapped mapped = (WindowMapping.Mapped) outcome;
        emit(mapped.key(), mapped.cells());
        s =
            new SyncStats(
                sameRow ? 0 : 1,
                window.length,
                deletes,
                0,
                0,
                window.length,
                0,
                0,
                0,
                window.length);
      }
      stats = stats.plus(s);
      lastRow = row;
      lastRowRejected = outcome instanceof WindowMapping.Rejected;
    }

    private void emit(byte[] key, Cell[] cells) {
      if (cells.length == 0) {
        return;
      }
      for (byte[] record : ShuffleCell.records(key, cells)) {
        pending.add(new Tuple2<>(record, null));
      }
    }

    @Override
    protected void finish() {
      records.finish(stats.toLine());
    }
  }
}
