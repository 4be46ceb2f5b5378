package io.rekey.index;

import io.rekey.RekeyException;
import io.rekey.hbase.TableAdmin;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * An index's state in an HBase table (so every machine that runs the schedule sees the same): the
 * watermark (cells older than it are indexed), the lock that keeps two runs of one index apart, and
 * the run history. Row {@code INDEX} holds the watermark and the lock; rows {@code
 * INDEX/run/<reversed time>} hold one run each, newest first. The lock is taken and released with
 * check-and-mutate, so of two runs that start together exactly one gets it.
 */
public final class IndexState {
  private static final byte[] FAMILY = Bytes.toBytes("s");
  private static final byte[] WATERMARK = Bytes.toBytes("watermark");
  private static final byte[] LOCK = Bytes.toBytes("lock");
  private static final byte[] RUN = Bytes.toBytes("run");

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
    TableAdmin admin = new TableAdmin(connection);
    if (admin.exists(table)) {
      return;
    }
    try {
      admin.create(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build())
              .build(),
          List.of());
    } catch (RekeyException e) {
      if (!admin.exists(table)) {
        throw e;
      }
      // Another run created it at the same moment: fine.
    }
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

  /** A held lock; closing it releases it (only if it is still ours). */
  public final class Lock implements AutoCloseable {
    private final byte[] value;

    private Lock(byte[] value) {
      this.value = value;
    }

    @Override
    public void close() {
      try (Table t = connection.getTable(table)) {
        t.checkAndMutate(
            CheckAndMutate.newBuilder(row)
                .ifEquals(FAMILY, LOCK, value)
                .build(new Delete(row).addColumns(FAMILY, LOCK)));
      } catch (IOException e) {
        throw new RekeyException(
            "cannot release the lock of index "
                + index
                + " in "
                + table
                + ": "
                + e.getMessage()
                + "; the next run will say who holds it and how to break it",
            e);
      }
    }
  }

  /**
   * Takes the index's lock.
   *
   * @param purpose what the run does, shown to a run that finds the lock taken
   * @param breakLock take it even when held (the holder died)
   * @throws IndexBusyException when another run holds it
   */
  public Lock lock(String purpose, boolean breakLock) {
    ensureTable();
    byte[] value =
        Bytes.toBytes(
            purpose
                + " by "
                + whoAmI()
                + " since "
                + Instant.ofEpochMilli(System.currentTimeMillis()));
    Put put = new Put(row).addColumn(FAMILY, LOCK, value);
    try (Table t = connection.getTable(table)) {
      if (breakLock) {
        t.put(put);
        return new Lock(value);
      }
      boolean taken =
          t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(FAMILY, LOCK).build(put))
              .isSuccess();
      if (!taken) {
        byte[] holder = get(LOCK).getValue(FAMILY, LOCK);
        throw new IndexBusyException(
            "index "
                + index
                + " is locked by another run ("
                + (holder == null ? "released just now" : Bytes.toString(holder))
                + "), so this run did nothing; try again when it has finished, or pass"
                + " --break-lock if that run is dead");
      }
      return new Lock(value);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot take the lock of index " + index + " in " + table + ": " + e.getMessage(), e);
    }
  }

  /** Appends a run to the history (a JSON line). */
  public void recordRun(long startedMillis, String json) {
    byte[] runRow =
        Bytes.add(row, Bytes.toBytes("/run/"), Bytes.toBytes(Long.MAX_VALUE - startedMillis));
    mutate(new Put(runRow).addColumn(FAMILY, RUN, Bytes.toBytes(json)), "record the run");
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

  private static String whoAmI() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown-host";
    }
    return ManagementFactory.getRuntimeMXBean().getPid() + "@" + host;
  }
}
