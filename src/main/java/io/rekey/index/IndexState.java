package io.rekey.index;

import io.rekey.RekeyException;
import io.rekey.hbase.RunLock;
import io.rekey.hbase.TableRead;
import io.rekey.report.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An index's state in an HBase table (so every machine that runs the schedule sees the same): the
 * watermark (cells older than it are indexed), the lock that keeps two runs of one index apart, the
 * snapshot a run is reading (so the next run deletes it when that run died), and the run history.
 * Row {@code INDEX} holds the watermark, the lock and the snapshot; rows {@code INDEX/run/<reversed
 * time>} hold one run each ({@link IndexRunRecord}), newest first. The lock is taken and released
 * with check-and-mutate, so of two runs that start together exactly one gets it.
 */
public final class IndexState {
  private static final Logger LOG = LoggerFactory.getLogger(IndexState.class);
  private static final byte[] FAMILY = RunLock.FAMILY;
  private static final byte[] WATERMARK = Bytes.toBytes("watermark");
  private static final byte[] RUN = Bytes.toBytes("run");
  private static final byte[] READ = Bytes.toBytes("read");
  private static final byte[] STAMP = Bytes.toBytes("stamp");

  private final Connection connection;
  private final TableName table;
  private final TableName index;
  private final byte[] row;

  public IndexState(Connection connection, TableName table, TableName index) {
    this.connection = connection;
    this.table = table;
    this.index = index;
    this.row = Bytes.toBytes(index.getNameAsString());
  }

  /** Creates the state table when it is missing (one family, one version, never split). */
  public void ensureTable() {
    RunLock.ensureStateTable(connection, table);
  }

  /** The watermark, or empty when the index was never built. */
  public OptionalLong watermark() {
    Result r = get(WATERMARK);
    byte[] v = r.getValue(FAMILY, WATERMARK);
    return v == null ? OptionalLong.empty() : OptionalLong.of(Bytes.toLong(v));
  }

  /** Moves the watermark: cells older than {@code millis} are in the index. */
  public void moveWatermark(long millis) {
    mutate(new Put(row).addColumn(FAMILY, WATERMARK, Bytes.toBytes(millis)), "move the watermark");
  }

  /**
   * Takes the index's lock: the run lock of the index table ({@link RunLock}), so a rekey into the
   * same table is kept out too.
   *
   * @param purpose what the run does, shown to a run that finds the lock taken
   * @param application the Spark application id, or null
   * @param breakLock take it even when held (the holder died)
   * @throws io.rekey.hbase.RunLockedException when another run holds it
   */
  public RunLock lock(String purpose, String application, boolean breakLock) {
    return RunLock.take(connection, table, index, purpose, application, breakLock);
  }

  /**
   * The timestamp for the entry cells of a run starting at {@code now} (see {@link IndexEntries}):
   * later than every earlier run's of this index, even when this driver's clock is behind that of
   * the machine that ran before (a schedule on several hosts). Call it holding the lock.
   */
  public long nextStamp(long now) {
    byte[] last = get(STAMP).getValue(FAMILY, STAMP);
    long stamp = last == null ? now : Math.max(now, Bytes.toLong(last) + 1);
    mutate(new Put(row).addColumn(FAMILY, STAMP, Bytes.toBytes(stamp)), "record the run's time");
    return stamp;
  }

  /**
   * Runs {@code body} and appends it to the history, failed or not (a failure is rethrown).
   *
   * @param done the record of the run that ended
   */
  public <R> R recorded(
      IndexRunRecord.Start start, Supplier<R> body, Function<R, IndexRunRecord> done) {
    R result;
    try {
      result = body.get();
    } catch (RuntimeException e) {
      recordRun(start.startedMillis(), start.failed(e.getMessage()));
      throw e;
    }
    recordRun(start.startedMillis(), done.apply(result));
    return result;
  }

  /**
   * Appends a run to the history (a JSON line). A failure to write it is logged, not thrown: the
   * run's own outcome stands (a failed run is usually failing for the same reason).
   */
  private void recordRun(long startedMillis, IndexRunRecord record) {
    byte[] runRow =
        Bytes.add(row, Bytes.toBytes("/run/"), Bytes.toBytes(Long.MAX_VALUE - startedMillis));
    try {
      mutate(
          new Put(runRow).addColumn(FAMILY, RUN, Bytes.toBytes(Json.toJsonLine(record))),
          "record the run");
    } catch (RekeyException e) {
      LOG.warn("index {}: the run was not recorded in its history: {}", index, e.getMessage());
    }
  }

  /**
   * Notes the snapshot a run reads, while it holds the lock, so that the next run can delete it if
   * this one dies before it does ({@link #deleteLeftoverRead}).
   */
  public void rememberRead(TableRead read) {
    if (read.snapshot() != null) {
      mutate(
          new Put(row)
              .addColumn(FAMILY, READ, Bytes.toBytes(read.snapshot() + " " + read.restoreDir())),
          "note the snapshot read");
    }
  }

  /** Forgets the snapshot of {@link #rememberRead}: the read was closed. */
  public void forgetRead() {
    try (Table t = connection.getTable(table)) {
      t.delete(new Delete(row).addColumns(FAMILY, READ));
    } catch (IOException e) {
      LOG.warn("index {}: could not clear the snapshot note: {}", index, e.getMessage());
    }
  }

  /**
   * Deletes the snapshot and restore directory a run of this index left when it died (killed, its
   * host lost) before closing its read. Call it holding the lock: no live run reads it then.
   */
  public void deleteLeftoverRead(Configuration conf) {
    byte[] v = get(READ).getValue(FAMILY, READ);
    if (v == null) {
      return;
    }
    String[] snapshotAndRestore = Bytes.toString(v).split(" ", 2);
    TableRead.deleteLeftover(
        connection,
        conf,
        snapshotAndRestore[0],
        snapshotAndRestore.length > 1 ? new Path(snapshotAndRestore[1]) : null);
    LOG.warn(
        "index {}: deleted snapshot {}, left by a run of this index that did not finish",
        index,
        snapshotAndRestore[0]);
    forgetRead();
  }

  /** The newest {@code limit} runs, newest first (JSON lines). */
  public List<String> history(int limit) {
    List<String> out = new ArrayList<>();
    byte[] prefix = Bytes.add(row, Bytes.toBytes("/run/"));
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(new Scan().setRowPrefixFilter(prefix).setLimit(limit))) {
      for (Result r : s) {
        out.add(Bytes.toString(r.getValue(FAMILY, RUN)));
      }
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the run history in " + table + ": " + e.getMessage(), e);
    }
    return out;
  }

  private Result get(byte[] qualifier) {
    ensureTable();
    try (Table t = connection.getTable(table)) {
      return t.get(new Get(row).addColumn(FAMILY, qualifier));
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the state of index " + index + " in " + table + ": " + e.getMessage(), e);
    }
  }

  private void mutate(Put put, String what) {
    try (Table t = connection.getTable(table)) {
      t.put(put);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot " + what + " of index " + index + " in " + table + ": " + e.getMessage(), e);
    }
  }
}
