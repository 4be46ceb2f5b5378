package io.rekey.index;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.index.IndexDefinition.Column;
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
 * incremental run reads only a time window, so a row whose indexed cell changed may come without
 * its covered columns: those are fetched from the source, a batch of rows at a time.
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

  /**
   * @param window the rows come from a time-window read (an incremental run): fetch missing covered
   *     columns, and count rows without an indexed cell as skipped whatever the definition says
   *     about missing values
   * @param rowsRejectedProgress counts rejected rows as they are found, so the driver can stop the
   *     job once there are more than it may go on without
   */
  public IndexEntryStage(
      IndexDefinition definition,
      boolean window,
      String runDir,
      ShippedConfiguration conf,
      LongAccumulator rowsRejectedProgress) {
    this.definition = definition;
    this.window = window;
    this.runDir = runDir;
    this.conf = conf;
    this.rowsRejectedProgress = rowsRejectedProgress;
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

    Entries(int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      super(rows);
      this.records = new PartitionRecords(conf, runDir, partition);
    }

    /**
     * A batch of rows. A build writes each row's entries as it comes; a window read first collects
     * the rows whose covered columns it did not get, to fetch them together.
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
      List<List<IndexEntries.Entry>> made = new ArrayList<>(FETCH_BATCH);
      List<Result> needCovered = new ArrayList<>();
      while (batch.size() < FETCH_BATCH && rows.hasNext()) {
        Result row = rows.next()._2();
        List<IndexEntries.Entry> e = entries(row);
        if (!e.isEmpty() && !entries.missingCovered(row).isEmpty()) {
          needCovered.add(row);
        }
        batch.add(row);
        made.add(e);
      }
      Map<String, Result> fetched = fetchCovered(needCovered);
      for (int i = 0; i < batch.size(); i++) {
        Result row = batch.get(i);
        Result coveredFrom =
            made.get(i).isEmpty() || fetched.isEmpty()
                ? row
                : fetched.getOrDefault(Bytes.toStringBinary(row.getRow()), row);
        write(made.get(i), coveredFrom);
      }
    }

    /**
     * A row's entries, counted: none when it has no indexed value (skipped, or rejected when the
     * definition says so and this is no window read) or its entry key cannot be made (rejected).
     */
    private List<IndexEntries.Entry> entries(Result row) {
      rowsRead++;
      List<IndexEntries.Entry> e;
      try {
        e = entries.entries(row);
      } catch (KeyReject r) {
        records.reject(r.reason().name(), r.detail(), row.getRow());
        rowsRejected++;
        rowsRejectedProgress.add(1);
        return List.of();
      }
      if (!e.isEmpty()) {
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
        byte[] record = entries.record(entry, coveredFrom);
        cellsMade += ShuffleCell.cellCount(record);
        pending.add(new Tuple2<>(record, null));
      }
    }

    /** The covered columns of rows a window read gave without them, newest values. */
    private Map<String, Result> fetchCovered(List<Result> rowsMissing) {
      Map<String, Result> out = new HashMap<>();
      if (rowsMissing.isEmpty()) {
        return out;
      }
      List<Get> gets = new ArrayList<>(rowsMissing.size());
      for (Result r : rowsMissing) {
        Get g = new Get(r.getRow());
        for (Column c : definition.covered()) {
          g.addColumn(Bytes.toBytes(c.family()), Bytes.toBytes(c.qualifier()));
        }
        gets.add(g);
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
            "cannot read the covered columns of " + definition.source(), e);
      }
      return out;
    }

    @Override
    protected void finish() {
      records.finish(
          new IndexStats(
                  rowsRead, rowsIndexed, entriesMade, cellsMade, rowsWithoutValue, rowsRejected)
              .toLine());
    }
  }
}
