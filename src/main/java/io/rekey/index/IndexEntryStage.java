package io.rekey.index;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.index.entries.EntryChanges;
import io.rekey.index.entries.IndexEntries;
import io.rekey.index.entries.RowRecord;
import io.rekey.keys.KeyReject;
import io.rekey.keys.RejectReason;
import io.rekey.write.PartitionRecords;
import io.rekey.write.RowMappingStage;
import io.rekey.write.RowsToCells;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The entry stage: every source row becomes its index entries' cells and its row record, as {@link
 * ShuffleCell} pairs for the writer. A build indexes each row it reads; rows without the indexed
 * value are counted (or rejected, when the definition says so), rows whose entry key cannot be made
 * go to the partition's rejects file. An update reads a window raw ({@link
 * IndexEntries#windowScan}): the rows whose index columns changed, deletes included. Each such row
 * is indexed as it is now (its window, or a read of it when the window does not tell, a batch at a
 * time), and the entries its row record lists that it no longer gives are retired ({@link
 * EntryChanges}).
 */
public final class IndexEntryStage extends RowMappingStage {
  private static final long serialVersionUID = 1L;
  private static final int FETCH_BATCH = 256;
  private static final Result EMPTY_ROW = Result.create(new org.apache.hadoop.hbase.Cell[0]);

  private final IndexDefinition definition;
  private final boolean window;
  private final long stamp;

  /**
   * @param window the rows come from an update's raw read of its window ({@link
   *     IndexEntries#windowScan}): each is indexed as it is now and its retired entries removed;
   *     rows without the value count as skipped whatever the definition says about missing values
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
    super(runDir, conf, rowsRejectedProgress);
    this.definition = definition;
    this.window = window;
    this.stamp = stamp;
  }

  @Override
  protected RowsToCells partition(
      int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    return new Entries(partition, rows);
  }

  private final class Entries extends RowsToCells {
    private final IndexEntries entries = definition.entries();
    private final EntryChanges changes = new EntryChanges(entries);
    private final PartitionRecords records;
    // The partition's counts (IndexStats), added up as the rows go.
    private long rowsRead;
    private long rowsIndexed;
    private long entriesMade;
    private long cellsMade;
    private long rowsWithoutValue;
    private long rowsRejected;
    private long rowsWithValue;
    private long entriesRetired;

    Entries(int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      super(rows);
      this.records = records(partition);
    }

    /**
     * A batch of rows. A build writes each row's entries and record as it comes; an update reads
     * the batch's row records and, for the rows whose window does not tell what they hold now, the
     * rows themselves, then writes each row's change ({@link EntryChanges}).
     */
    @Override
    protected void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      if (!window) {
        for (int n = 0; n < FETCH_BATCH && rows.hasNext(); n++) {
          Result row = rows.next()._2();
          List<IndexEntries.Entry> made = entries(row);
          write(made, row);
          if (!made.isEmpty()) {
            add(entries.rowRecord(row.getRow(), made, stamp));
          }
        }
        return;
      }
      List<Result> batch = new ArrayList<>(FETCH_BATCH);
      // Each row's window, or null where the row is read again.
      List<Result> told = new ArrayList<>(FETCH_BATCH);
      List<Get> reads = new ArrayList<>();
      List<Get> records = new ArrayList<>(FETCH_BATCH);
      while (batch.size() < FETCH_BATCH && rows.hasNext()) {
        Result row = rows.next()._2();
        batch.add(row);
        records.add(entries.rowRecordGet(row.getRow()));
        boolean suffices = entries.windowSuffices(row);
        told.add(suffices ? row : null);
        if (!suffices) {
          reads.add(entries.current(row.getRow()));
        }
      }
      Map<String, Result> now = byRow(read(definition.source(), reads));
      Map<String, Result> recorded = byRow(read(definition.indexTable(), records));
      for (int i = 0; i < batch.size(); i++) {
        Result row = batch.get(i);
        String key = Bytes.toStringBinary(row.getRow());
        Result state = told.get(i) != null ? told.get(i) : now.getOrDefault(key, EMPTY_ROW);
        change(row.getRow(), state, entries.rowRecord(recorded.get(key)));
      }
    }

    /** One updated row's change, written and counted. */
    private void change(byte[] sourceKey, Result now, RowRecord.Versions recorded) {
      EntryChanges.Change c = changes.of(sourceKey, now, recorded, stamp);
      rowsRead++;
      entriesRetired += c.retired();
      if (c.rejected() != null) {
        records.reject(c.rejected().reason().name(), c.rejected().detail(), sourceKey);
        rowsWithValue++;
        rowsRejected++;
        rowsRejectedProgress.add(1);
      } else if (!c.made().isEmpty()) {
        rowsWithValue++;
        rowsIndexed++;
        entriesMade += c.made().size();
      } else {
        rowsWithoutValue++;
      }
      for (byte[] record : c.records()) {
        add(record);
      }
    }

    /**
     * A row's entries, counted: none when it has no indexed value (skipped, or rejected when the
     * definition says so) or its entry key cannot be made (rejected).
     */
    private List<IndexEntries.Entry> entries(Result row) {
      rowsRead++;
      List<IndexEntries.Entry> e;
      try {
        e = entries.entries(row);
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
      } else if (definition.rejectMissing()) {
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

    /** Each entry's cells as one record (ShuffleCell). */
    private void write(List<IndexEntries.Entry> made, Result row) {
      for (IndexEntries.Entry entry : made) {
        add(entries.record(entry, row, stamp));
      }
    }

    private void add(byte[] record) {
      cellsMade += ShuffleCell.cellCount(record);
      pending.add(new Tuple2<>(record, null));
    }

    /** Rows of {@code table} by key, in batches of {@value #FETCH_BATCH}; absent rows left out. */
    private List<Result> read(TableName table, List<Get> gets) {
      if (gets.isEmpty()) {
        return List.of();
      }
      try (Table t = ExecutorConnections.get(conf).getTable(table)) {
        return Arrays.asList(t.get(gets));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read rows of " + table + " for the update", e);
      }
    }

    private static Map<String, Result> byRow(List<Result> rows) {
      Map<String, Result> out = new HashMap<>();
      for (Result r : rows) {
        if (r != null && !r.isEmpty()) {
          out.put(Bytes.toStringBinary(r.getRow()), r);
        }
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
                  rowsWithValue,
                  entriesRetired)
              .toLine());
    }
  }
}
