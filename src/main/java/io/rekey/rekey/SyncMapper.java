package io.rekey.rekey;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.read.RowReads;
import io.rekey.write.PartitionRecords;
import io.rekey.write.RowMappingStage;
import io.rekey.write.RowsToCells;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The map stage of a sync window: each source row's window cells through {@link WindowMapping}.
 * When the key depends on a column, the rows of the window are taken {@value #HISTORY_BATCH} at a
 * time and their stored history is read raw in one scan (a filter that seeks from row to row), on
 * the executor's shared connection. Rejected rows go to the partition's rejects file with the
 * reason; the partition's counts ({@link SyncStats}) are written when it is done.
 */
final class SyncMapper extends RowMappingStage {
  private static final long serialVersionUID = 1L;
  static final int HISTORY_BATCH = RowReads.BATCH;

  private final WindowMapping mapping;
  private final String source;
  private final long to;
  private final int piece;

  /**
   * @param source the source table, read again for the rows' histories
   * @param to the window's end: histories are read below it
   * @param piece the most cells of a row held at once: a wider row's history is read again, a piece
   *     at a time, where it is needed whole
   */
  SyncMapper(
      WindowMapping mapping,
      String source,
      long to,
      String runDir,
      ShippedConfiguration conf,
      LongAccumulator rowsRejectedProgress,
      int piece) {
    super(runDir, conf, rowsRejectedProgress);
    this.mapping = mapping;
    this.piece = piece;
    this.source = source;
    this.to = to;
  }

  @Override
  protected RowsToCells partition(
      int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    return new PartitionIterator(partition, rows);
  }

  private final class PartitionIterator extends RowsToCells {
    private final PartitionRecords records;
    private SyncStats stats = SyncStats.ZERO;
    private byte[] lastRow;
    private boolean lastRowRejected;
    private Table sourceTable;

    PartitionIterator(int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      super(rows);
      this.records = records(partition);
    }

    @Override
    protected void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      if (!mapping.needsHistory()) {
        Result r = rows.next()._2();
        map(r.getRow(), r.rawCells(), null, null);
        return;
      }
      List<Result> batch = new ArrayList<>(HISTORY_BATCH);
      while (batch.size() < HISTORY_BATCH && rows.hasNext()) {
        batch.add(rows.next()._2());
      }
      List<byte[]> keys = new ArrayList<>(batch.size());
      for (Result r : batch) {
        keys.add(r.getRow());
      }
      try {
        RowReads.Rows histories = RowReads.read(sourceTable(), keys, true, to, piece);
        for (Result r : batch) {
          byte[] row = r.getRow();
          if (histories.wide().contains(row)) {
            WindowMapping.History history;
            try (RowReads.RowCells cells = stored(row)) {
              history = mapping.history(cells);
            }
            map(row, r.rawCells(), history, () -> stored(row));
          } else {
            List<Cell> cells = Arrays.asList(histories.get(row));
            map(row, r.rawCells(), mapping.history(cells.iterator()), cells::iterator);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read the history of " + batch.size() + " rows of " + source, e);
      }
    }

    /** A wide row's stored cells below the window's end, raw, a piece at a time. */
    private RowReads.RowCells stored(byte[] row) {
      try {
        return RowReads.cells(sourceTable(), row, true, to, piece);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the history of a wide row of " + source, e);
      }
    }

    /**
     * @param history the row's history, or null when the key depends on the old key alone
     * @param stored the row's stored cells, read again for a move or a retirement
     */
    private void map(
        byte[] row, Cell[] window, WindowMapping.History history, Supplier<Iterator<Cell>> stored) {
      // A wide row read in batches (keys without bound columns only) is counted, and rejected,
      // once.
      boolean sameRow = lastRow != null && Arrays.equals(lastRow, row);
      long deletes = 0;
      for (Cell c : window) {
        deletes += CellUtil.isDelete(c) ? 1 : 0;
      }
      WindowMapping.Decision decision = mapping.decide(row, history);
      SyncStats s;
      if (decision instanceof WindowMapping.Refuse refused) {
        boolean newReject = !(sameRow && lastRowRejected);
        if (newReject) {
          rowsRejectedProgress.add(1);
          records.reject(refused.reason(), refused.detail(), row);
        }
        // A row that lost its key leaves the keys it had: no stale copy stays in the target.
        rewrite(stored, null, refused.oldKeys());
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
                0,
                0);
      } else if (decision instanceof WindowMapping.Move moved) {
        rewrite(stored, moved.newKey(), moved.oldKeys());
        s = new SyncStats(1, window.length, deletes, 0, 0, window.length, 1, 0, 0, 0);
      } else {
        emit(((WindowMapping.Write) decision).key(), window);
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
      lastRowRejected = decision instanceof WindowMapping.Refuse;
    }

    /**
     * Writes the row's stored cells under {@code newKey} (unless null) and retires its Puts under
     * each of {@code oldKeys}, as the cells are read: a wide row is never held whole. The counts
     * are added as the cells go.
     */
    private void rewrite(Supplier<Iterator<Cell>> stored, byte[] newKey, List<byte[]> oldKeys) {
      if (newKey == null && oldKeys.isEmpty()) {
        return;
      }
      Iterator<Cell> cells = stored.get();
      pending.later(
          new Iterator<>() {
            private final ArrayDeque<Tuple2<byte[], byte[]>> made = new ArrayDeque<>();

            @Override
            public boolean hasNext() {
              while (made.isEmpty() && cells.hasNext()) {
                // A piece of the row at a time, moved and retired as records of many cells.
                List<Cell> chunk = new ArrayList<>();
                List<Cell> puts = new ArrayList<>();
                while (chunk.size() < piece && cells.hasNext()) {
                  Cell c = cells.next();
                  chunk.add(c);
                  if (c.getType() == Cell.Type.Put) {
                    puts.add(c);
                  }
                }
                if (newKey != null) {
                  add(newKey, chunk);
                }
                for (byte[] old : oldKeys) {
                  List<Cell> markers = new ArrayList<>(puts.size());
                  for (Cell put : puts) {
                    markers.add(WindowMapping.retiring(old, put));
                  }
                  add(old, markers);
                }
                long moved = newKey == null ? 0 : chunk.size();
                long retired = (long) puts.size() * oldKeys.size();
                stats = stats.plus(new SyncStats(0, 0, 0, 0, 0, 0, 0, moved, retired, 0));
              }
              return !made.isEmpty();
            }

            private void add(byte[] key, List<Cell> cells) {
              if (cells.isEmpty()) {
                return;
              }
              for (byte[] record : ShuffleCell.records(key, cells.toArray(new Cell[0]))) {
                made.add(new Tuple2<>(record, null));
              }
            }

            @Override
            public Tuple2<byte[], byte[]> next() {
              if (!hasNext()) {
                throw new NoSuchElementException();
              }
              return made.poll();
            }
          });
    }

    private void emit(byte[] key, Cell[] cells) {
      if (cells.length == 0) {
        return;
      }
      for (byte[] record : ShuffleCell.records(key, cells)) {
        pending.add(new Tuple2<>(record, null));
      }
    }

    /** The source table on the executor's shared connection, opened once for the task. */
    private Table sourceTable() throws IOException {
      if (sourceTable == null) {
        sourceTable = ExecutorConnections.get(conf).getTable(TableName.valueOf(source));
      }
      return sourceTable;
    }

    @Override
    protected void finish() {
      if (sourceTable != null) {
        try {
          sourceTable.close();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot close " + source, e);
        }
      }
      records.finish(stats.toLine());
    }
  }
}
