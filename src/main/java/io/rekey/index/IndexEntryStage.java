package io.rekey.index;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.keys.KeyReject;
import io.rekey.keys.RejectReason;
import io.rekey.write.PartitionRecords;
import io.rekey.write.RowsToCells;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The entry stage: every source row becomes its index entries' cells, as {@link ShuffleCell} pairs
 * for the HFile writer. Rows without the indexed value are counted (or rejected, when the
 * definition says so); rows whose entry key cannot be made go to the partition's rejects file. An
 * incremental run reads only a time window, so a row may come with only some of the index's
 * columns: one whose indexed cell changed without its covered columns, or one where only a covered
 * column changed (its entry must show the new value), or one without the columns its source key
 * binds (its entry key needs them). Such rows are read again from the source, a batch at a time,
 * and their entries made from what the row holds now.
 */
public final class IndexEntryStage
    implements Function2<
        Integer,
        Iterator<Tuple2<ImmutableBytesWritable, Result>>,
        Iterator<Tuple2<byte[], byte[]>>> {
  private static final long serialVersionUID = 1L;
  private static final int FETCH_BATCH = 256;

  private final IndexDefinition definition;
  private final boolean window;
  private final String runDir;
  private final ShippedConfiguration conf;
  private final LongAccumulator rowsRejectedProgress;
  private final long stamp;

  /**
   * @param window the rows come from a time-window read (an incremental run): read rows the window
   *     gave partly again, and count rows without an indexed cell as skipped whatever the
   *     definition says about missing values
   * @param rowsRejectedProgress counts rejected rows as they are found, so the driver can stop the
   *     job once there are more than it may go on without
   * @param stamp the entry cells' timestamp: the run's time (see {@link IndexEntries})
   */
  public IndexEntryStage(
      IndexDefinition definition,
      boolean window,
      String runDir,
      ShippedConfiguration conf,
      LongAccumulator rowsRejectedProgress,
      long stamp) {
    this.definition = definition;
    this.window = window;
    this.runDir = runDir;
    this.conf = conf;
    this.rowsRejectedProgress = rowsRejectedProgress;
    this.stamp = stamp;
  }

  @Override
  public Iterator<Tuple2<byte[], byte[]>> call(
      Integer partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    return new Entries(partition, rows);
  }

  private final class Entries extends RowsToCells {
    private final IndexEntries entries = new IndexEntries(definition);
    private final PartitionRecords records;
    // The partition's counts (IndexStats), added up as the rows go.
    private long rowsRead;
    private long rowsIndexed;
    private long entriesMade;
    private long cellsMade;
    private long rowsWithoutValue;
    private long rowsRejected;
    private long rowsWithValue;

    Entries(int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      super(rows);
      this.records = new PartitionRecords(conf, runDir, partition);
    }

    /**
     * A batch of rows. A build writes each row's entries as it comes; a window read first collects
     * the rows it did not get whole (the indexed cell or a covered column not in the window), to
     * read them again together.
     */
    @Override
    protected void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      if (!window) {
        for (int n = 0; n < FETCH_BATCH && rows.hasNext(); n++) {
          Result row = rows.next()._2();
          write(entries(row), row);
        }
        return;
      }
      List<Result> batch = new ArrayList<>(FETCH_BATCH);
      List<Result> partial = new ArrayList<>();
      while (batch.size() < FETCH_BATCH && rows.hasNext()) {
        Result row = rows.next()._2();
        if (!entries.hasIndexedColumn(row)
            || !entries.missingCovered(row).isEmpty()
            || entries.missesBoundColumn(row)) {
          partial.add(row);
        }
        batch.add(row);
      }
      Map<String, Result> fetched = fetchWhole(partial);
      for (Result row : batch) {
        Result whole =
            fetched.isEmpty() ? row : fetched.getOrDefault(Bytes.toStringBinary(row.getRow()), row);
        // The indexed cells of the window make the entries; a row where only a covered column
        // changed gets the entries of its indexed cell as it is now, rewritten with the new value.
        // Entry keys take their bound columns from the whole row.
        write(entries(entries.hasIndexedColumn(row) ? row : whole, whole), whole);
      }
    }

    /**
     * A row's entries, counted: none when it has no indexed value (skipped, or rejected when the
     * definition says so and this is no window read) or its entry key cannot be made (rejected).
     */
    private List<IndexEntries.Entry> entries(Result row) {
      return entries(row, row);
    }

    private List<IndexEntries.Entry> entries(Result row, Result columnsFrom) {
      rowsRead++;
      List<IndexEntries.Entry> e;
      try {
        e = entries.entries(row, columnsFrom);
      } catch (KeyReject r) {
        records.reject(r.reason().name(), r.detail(), row.getRow());
        rowsWithValue++;
        rowsRejected++;
        rowsRejectedProgress.add(1);
        return List.of();
      }
      if (!e.isEmpty()) {
        rowsWithValue++;
        rowsIndexed++;
        entriesMade += e.size();
      } else if (definition.rejectMissing() && !window) {
        records.reject(
            RejectReason.FIELD_MISSING.name(),
            "the row has no " + definition.valueName(),
            row.getRow());
        rowsRejected++;
        rowsRejectedProgress.add(1);
      } else {
        rowsWithoutValue++;
      }
      return e;
    }

    /** Each entry's cells as one record (ShuffleCell), covered columns from {@code coveredFrom}. */
    private void write(List<IndexEntries.Entry> made, Result coveredFrom) {
      for (IndexEntries.Entry entry : made) {
        byte[] record = entries.record(entry, coveredFrom, stamp);
        cellsMade += ShuffleCell.cellCount(record);
        pending.add(new Tuple2<>(record, null));
      }
    }

    /** The index's columns of rows a window read did not give whole, as the source holds them. */
    private Map<String, Result> fetchWhole(List<Result> rowsPartial) {
      Map<String, Result> out = new HashMap<>();
      if (rowsPartial.isEmpty()) {
        return out;
      }
      List<Get> gets = new ArrayList<>(rowsPartial.size());
      for (Result r : rowsPartial) {
        gets.add(entries.get(r.getRow()));
      }
      try {
        try (Table t = ExecutorConnections.get(conf).getTable(definition.source())) {
          for (Result r : t.get(gets)) {
            if (r != null && !r.isEmpty()) {
              out.put(Bytes.toStringBinary(r.getRow()), r);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read the index's columns of " + definition.source(), e);
      }
      return out;
    }

    @Override
    protected void finish() {
      records.finish(
          new IndexStats(
                  rowsRead,
                  rowsIndexed,
                  entriesMade,
                  cellsMade,
                  rowsWithoutValue,
                  rowsRejected,
                  rowsWithValue)
              .toLine());
    }
  }
}
