package io.rekey.rekey;

import io.rekey.hbase.ShippedConfiguration;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import io.rekey.write.PartitionRecords;
import io.rekey.write.RowMappingStage;
import io.rekey.write.RowsToCells;
import io.rekey.write.ShuffleCell;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The map stage: every source row through the key mapping. A mapped row's cells go on with their
 * family, qualifier, timestamp, type and value unchanged; a row that cannot be mapped goes to this
 * partition's rejects file with the reason. When the partition is done, its counts are written next
 * to the rejects, so the driver can prove read = written + rejected + skipped.
 */
public final class CellMapper extends RowMappingStage {
  private static final long serialVersionUID = 1L;

  private final KeyMapping mapping;
  private final boolean raw;
  private final boolean trackOldRows;
  private final LongAccumulator cellsProgress;

  /**
   * @param raw the rows come from a raw read: bound columns take the value a normal read returns,
   *     not the first raw cell (which may be a delete marker or a Put a marker hides)
   * @param trackOldRows carry each cell's old row (non-injective layouts: collision checks)
   * @param cellsProgress counts cells as they are read, for progress lines only
   * @param rowsRejectedProgress counts rejected rows as they are found, so the driver can stop the
   *     job once there are more than it may load without
   */
  public CellMapper(
      KeyMapping mapping,
      boolean raw,
      boolean trackOldRows,
      String runDir,
      ShippedConfiguration conf,
      LongAccumulator cellsProgress,
      LongAccumulator rowsRejectedProgress) {
    super(runDir, conf, rowsRejectedProgress);
    this.mapping = mapping;
    this.raw = raw;
    this.trackOldRows = trackOldRows;
    this.cellsProgress = cellsProgress;
  }

  @Override
  protected RowsToCells partition(
      int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    return new PartitionIterator(partition, rows);
  }

  private final class PartitionIterator extends RowsToCells {
    private long rowsRead;
    private long cellsRead;
    private long rowsRejected;
    private long cellsRejected;
    private byte[] lastRow;
    private boolean lastRowRejected;
    private final PartitionRecords records;

    PartitionIterator(int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      super(rows);
      this.records = records(partition);
    }

    @Override
    protected void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      map(rows.next()._2());
    }

    private void map(Result result) {
      byte[] oldRow = result.getRow();
      Cell[] cells = result.rawCells();
      // A wide row arrives as several batches: count it, and reject it, once.
      boolean sameRow = lastRow != null && Arrays.equals(lastRow, oldRow);
      if (!sameRow) {
        rowsRead++;
      }
      cellsRead += cells.length;
      cellsProgress.add(cells.length);
      byte[] newRow;
      try {
        newRow = mapping.map(oldRow, CellVisibility.columns(result, raw));
      } catch (KeyReject r) {
        cellsRejected += cells.length;
        if (!(sameRow && lastRowRejected)) {
          rowsRejected++;
          rowsRejectedProgress.add(1);
          records.reject(r.reason().name(), r.detail(), oldRow);
        }
        lastRow = oldRow;
        lastRowRejected = true;
        return;
      }
      lastRow = oldRow;
      lastRowRejected = false;
      // The old row rides along only when collisions are checked; otherwise nothing does.
      byte[] tracked = trackOldRows ? oldRow : null;
      // The row's cells travel as one record, cut where it would pass ShuffleCell.RECORD_BYTES
      // (large values).
      for (byte[] record : ShuffleCell.records(newRow, cells)) {
        pending.add(new Tuple2<>(record, tracked));
      }
    }

    @Override
    protected void finish() {
      records.finish(new MapStats(rowsRead, cellsRead, rowsRejected, cellsRejected, 0).toLine());
    }
  }
}
