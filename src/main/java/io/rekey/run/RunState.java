package io.rekey.run;

import io.rekey.common.RekeyException;
import io.rekey.hbase.ServerClocks;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
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
 * The state of a table that jobs keep writing, in an HBase table (so every machine that runs the
 * schedule sees the same): an index table, or the target of a live migration ({@code rekey sync}).
 * It holds the watermark (cells older than it are written), the lock that keeps two runs writing
 * the table apart, the last run's time, the snapshot a run is reading (so the next run deletes it
 * when that run died), and the run history. Row {@code TABLE} holds the watermark, the lock and the
 * snapshot; rows {@code TABLE/run/<reversed time>} hold one run each (a JSON line), newest first.
 * The lock is taken and released with check-and-mutate, so of two runs that start together exactly
 * one gets it.
 */
public final class RunState {
  private static final Logger LOG = LoggerFactory.getLogger(RunState.class);
  private static final byte[] FAMILY = RunLock.FAMILY;
  private static final byte[] WATERMARK = Bytes.toBytes("watermark");
  private static final byte[] RUN = Bytes.toBytes("run");
  private static final byte[] READ = Bytes.toBytes("read");
  private static final byte[] STAMP = Bytes.toBytes("stamp");
  private static final byte[] DEFINITION = Bytes.toBytes("definition");
  private static final byte[] CLOCK = Bytes.toBytes("clock");

  /** How far behind now a window ends, so cells still being written are not passed over. */
  public static final OptionDef<Long> SAFETY_LAG =
      OptionDef.number(
              "safety-lag",
              "SECONDS",
              "incremental runs stop this far before now, so cells still being written are not"
                  + " missed",
              0,
              7L * 24 * 3600)
          .withDefault(60L);

  /**
   * The shortest safety lag taken without {@link #ALLOW_SHORT_LAG}: HBase's master refuses region
   * servers whose clock is more than {@code hbase.master.maxclockskew} (30 s by default) off its
   * own, so cell timestamps and the driver's clock may differ by that much on a healthy cluster.
   */
  public static final long MIN_SAFETY_LAG_SECONDS = 30;

  public static final OptionDef<Boolean> ALLOW_SHORT_LAG =
      OptionDef.flag(
          "allow-short-lag",
          "accept a safety lag under "
              + MIN_SAFETY_LAG_SECONDS
              + " s, 0 included: only where the driver and every region server share one clock"
              + " and writers do not set timestamps (a single-host test)");

  private final Connection connection;
  private final TableName table;
  private final TableName written;
  private final byte[] row;

  /**
   * The safety lag of {@link #SAFETY_LAG} in millis, refused under {@link #MIN_SAFETY_LAG_SECONDS}
   * unless {@link #ALLOW_SHORT_LAG} is given.
   *
   * @throws InvalidOptionException naming the value, why, and both fixes
   */
  public static long lagMillis(long seconds, boolean allowShort) {
    if (seconds < MIN_SAFETY_LAG_SECONDS && !allowShort) {
      throw InvalidOptionException.of(
          SAFETY_LAG.name(),
          String.valueOf(seconds),
          "is under "
              + MIN_SAFETY_LAG_SECONDS
              + " s: region server clocks may be that far from the driver's (HBase allows"
              + " hbase.master.maxclockskew, 30 s), and a cell stamped by a slow clock would be"
              + " behind the watermark before it is read. Use "
              + MIN_SAFETY_LAG_SECONDS
              + " or more (the default 60 also covers slow writers), or add --allow-short-lag"
              + " where one clock stamps everything");
    }
    return seconds * 1000;
  }

  /**
   * Refuses a window end later than now minus the safety lag: the watermark would move past cells
   * that are still being written, and no later run would read them.
   *
   * @param option the option that gave it, for the message
   * @throws InvalidOptionException naming the value, the limit and the fix
   */
  public static void checkWindowEnd(
      String option, String given, long end, long lagMillis, long now) {
    long limit = now - lagMillis;
    if (end > limit) {
      throw InvalidOptionException.of(
          option,
          given,
          "is later than now minus the safety lag ("
              + java.time.Instant.ofEpochMilli(limit)
              + " = "
              + limit
              + "): cells stamped before it may still be written, and the watermark would pass"
              + " them. Give a time at or before that, or leave --"
              + option
              + " out");
    }
  }

  /**
   * @param table the state table
   * @param written the table whose state this is (an index table, or a migration's target)
   */
  public RunState(Connection connection, TableName table, TableName written) {
    this.connection = connection;
    this.table = table;
    this.written = written;
    this.row = Bytes.toBytes(written.getNameAsString());
  }

  /** Creates the state table when it is missing (one family, one version, never split). */
  public void ensureTable() {
    RunLock.ensureStateTable(connection, table);
  }

  /**
   * The watermark, or empty when no run has set one (the index was never built, the table never
   * copied).
   */
  public OptionalLong watermark() {
    Result r = get(WATERMARK);
    byte[] v = r.getValue(FAMILY, WATERMARK);
    return v == null ? OptionalLong.empty() : OptionalLong.of(Bytes.toLong(v));
  }

  /** Moves the watermark: cells older than {@code millis} are in the table. */
  public void moveWatermark(long millis) {
    mutate(new Put(row).addColumn(FAMILY, WATERMARK, Bytes.toBytes(millis)), "move the watermark");
  }

  /**
   * The definition the table was first written with (a migration's key mapping, an index's
   * definition), as {@link #pinDefinition} recorded it, or null when none was.
   */
  public String pinnedDefinition() {
    byte[] v = get(DEFINITION).getValue(FAMILY, DEFINITION);
    return v == null ? null : Bytes.toString(v);
  }

  /**
   * The pinned definition, read without creating the state table when it does not exist (for jobs
   * that only read, such as verify); null when there is none.
   */
  public String pinnedDefinitionIfAny() {
    try (var admin = connection.getAdmin()) {
      if (!admin.tableExists(table)) {
        return null;
      }
    } catch (IOException e) {
      throw new RekeyException("cannot look up " + table + ": " + e.getMessage(), e);
    }
    return pinnedDefinition();
  }

  /**
   * Forgets the watermark: the table holds nothing a reader may rely on until a run moves it again
   * (a build into a new table, whose old one and its watermark went away). Call it holding the
   * lock.
   */
  public void clearWatermark() {
    try (Table t = connection.getTable(table)) {
      t.delete(new org.apache.hadoop.hbase.client.Delete(row).addColumns(FAMILY, WATERMARK));
    } catch (IOException e) {
      throw new RekeyException(
          "cannot clear the watermark of " + written + " in " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Records what the table is written with, so that later runs with another definition are refused
   * (they would mix two shapes in one table). Call it holding the lock.
   */
  public void pinDefinition(String definition) {
    mutate(
        new Put(row).addColumn(FAMILY, DEFINITION, Bytes.toBytes(definition)),
        "record the definition");
  }

  /**
   * How far the clock of the region server holding the state table is ahead of this JVM's
   * (negative: behind), less the uncertainty of one round trip: a cell written without a timestamp
   * takes the server's time, which is read back and set against the middle of the round trip. Zero
   * when the difference is within the round trip.
   */
  public long clockSkewMillis() {
    byte[] probe = Bytes.add(row, Bytes.toBytes("/clock"));
    long before = System.currentTimeMillis();
    mutate(new Put(probe).addColumn(FAMILY, CLOCK, Bytes.toBytes(before)), "probe the clock");
    long after = System.currentTimeMillis();
    long server;
    try (Table t = connection.getTable(table)) {
      server = t.get(new Get(probe).addColumn(FAMILY, CLOCK)).rawCells()[0].getTimestamp();
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the clock probe in " + table + ": " + e.getMessage(), e);
    }
    long skew = server - (before + after) / 2;
    long slack = (after - before + 1) / 2;
    return Math.abs(skew) <= slack ? 0 : skew - Long.signum(skew) * slack;
  }

  /**
   * Refuses a clock more than {@code maxSkewMillis} from this JVM's: of the region server holding
   * the state table ({@link #clockSkewMillis}), then of every other server holding a region of
   * {@code tables} ({@link ServerClocks}, which waits for their next reports to the master). A cell
   * stamped by a clock that far off can fall behind a watermark unread.
   *
   * @return the skew farthest from zero measured
   * @throws RekeyException with the server, the skew measured and both fixes
   */
  public long requireClocksWithin(long maxSkewMillis, long waitMillis, TableName... tables) {
    long skew = clockSkewMillis();
    if (Math.abs(skew) > maxSkewMillis) {
      throw skewRefusal("the region server holding " + table, skew, maxSkewMillis);
    }
    Set<ServerName> others = ServerClocks.holding(connection, tables);
    try {
      others.remove(connection.getRegionLocator(table).getRegionLocation(row).getServerName());
    } catch (IOException e) {
      throw new RekeyException("cannot locate " + table + ": " + e.getMessage(), e);
    }
    if (others.isEmpty()) {
      return skew;
    }
    ServerClocks.Measured measured;
    try (Admin admin = connection.getAdmin()) {
      measured =
          ServerClocks.measure(
              ServerClocks.reports(admin), others, waitMillis, System::currentTimeMillis);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the region servers' reports from the master: " + e.getMessage(), e);
    }
    if (!measured.silent().isEmpty()) {
      LOG.warn(
          "the clocks of {} could not be measured: no report to the master within {} ms",
          measured.silent(),
          waitMillis);
    }
    ServerClocks.Clock far = measured.farthest();
    if (far != null && Math.abs(far.skewMillis()) > maxSkewMillis) {
      throw skewRefusal("the region server " + far.server(), far.skewMillis(), maxSkewMillis);
    }
    return far != null && Math.abs(far.skewMillis()) > Math.abs(skew) ? far.skewMillis() : skew;
  }

  private static RekeyException skewRefusal(String server, long skew, long maxSkewMillis) {
    return new RekeyException(
        server
            + " stamps cells "
            + Math.abs(skew)
            + " ms "
            + (skew > 0 ? "ahead of" : "behind")
            + " this driver's clock, more than a third of the safety lag ("
            + 3 * maxSkewMillis
            + " ms): cells stamped by a clock that far off can fall behind the watermark"
            + " unread. Synchronize the clocks (NTP), or raise --"
            + SAFETY_LAG.name()
            + " to at least "
            + (3 * Math.abs(skew) + 999) / 1000
            + " s");
  }

  /**
   * Takes the table's run lock ({@link RunLock}): one run writes it at a time, whatever the job.
   *
   * @param purpose what the run does, shown to a run that finds the lock taken
   * @param application the Spark application id, or null
   * @param breakLock take it even when held (the holder died)
   * @throws io.rekey.run.RunLockedException when another run holds it
   */
  public RunLock lock(String purpose, String application, boolean breakLock) {
    return RunLock.take(connection, table, written, purpose, application, breakLock);
  }

  /**
   * The timestamp for the entry cells of a run starting at {@code now} (see
   * io.rekey.index.entries.IndexEntries): later than every earlier run's on this table, even when
   * this driver's clock is behind that of the machine that ran before (a schedule on several
   * hosts). Call it holding the lock.
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
   * @param done the history line (JSON) of the run that ended
   * @param failed the history line (JSON) of the run failing with a message
   */
  public <R> R recorded(
      long startedMillis,
      Supplier<R> body,
      Function<R, String> done,
      Function<String, String> failed) {
    R result;
    try {
      result = body.get();
    } catch (RuntimeException e) {
      recordRun(startedMillis, failed.apply(e.getMessage()));
      throw e;
    }
    recordRun(startedMillis, done.apply(result));
    return result;
  }

  /**
   * Appends a run to the history (a JSON line). A failure to write it is logged, not thrown: the
   * run's own outcome stands (a failed run is usually failing for the same reason).
   */
  private void recordRun(long startedMillis, String jsonLine) {
    byte[] runRow =
        Bytes.add(row, Bytes.toBytes("/run/"), Bytes.toBytes(Long.MAX_VALUE - startedMillis));
    try {
      mutate(new Put(runRow).addColumn(FAMILY, RUN, Bytes.toBytes(jsonLine)), "record the run");
    } catch (RekeyException e) {
      LOG.warn("{}: the run was not recorded in its history: {}", written, e.getMessage());
    }
  }

  /**
   * Notes the snapshot a run reads, while it holds the lock, so that the next run can delete it if
   * this one dies before it does ({@link #deleteLeftoverRead}).
   */
  public void rememberRead(String snapshot, Path restoreDir) {
    if (snapshot != null) {
      mutate(
          new Put(row).addColumn(FAMILY, READ, Bytes.toBytes(snapshot + " " + restoreDir)),
          "note the snapshot read");
    }
  }

  /** Forgets the snapshot of {@link #rememberRead}: the read was closed. */
  public void forgetRead() {
    try (Table t = connection.getTable(table)) {
      t.delete(new Delete(row).addColumns(FAMILY, READ));
    } catch (IOException e) {
      LOG.warn("{}: could not clear the snapshot note: {}", written, e.getMessage());
    }
  }

  /**
   * Deletes the snapshot and restore directory a run on this table left when it died (killed, its
   * host lost) before closing its read. Call it holding the lock: no live run reads it then.
   */
  public void deleteLeftoverRead(Configuration conf) {
    byte[] v = get(READ).getValue(FAMILY, READ);
    if (v == null) {
      return;
    }
    String[] snapshotAndRestore = Bytes.toString(v).split(" ", 2);
    new TableAdmin(connection).deleteSnapshot(snapshotAndRestore[0]);
    if (snapshotAndRestore.length > 1) {
      Path restore = new Path(snapshotAndRestore[1]);
      try {
        restore.getFileSystem(conf).delete(restore, true);
      } catch (IOException e) {
        LOG.warn("could not delete {}: {}", restore, e.getMessage());
      }
    }
    LOG.warn(
        "{}: deleted snapshot {}, left by a run that did not finish",
        written,
        snapshotAndRestore[0]);
    forgetRead();
  }

  /**
   * Whether the state table exists, looked up without creating it (for commands that only read).
   */
  public boolean tableExists() {
    return new TableAdmin(connection).exists(table);
  }

  /**
   * Who holds the run lock and since when (the lock cell's timestamp), or empty when it is free.
   *
   * @param holder what the run does, its process and host, and its Spark application
   * @param sinceMillis when the lock was taken, by the state table's region server
   */
  public record Holder(String holder, long sinceMillis) {}

  /** The run lock's {@link Holder}, or empty when no run holds it. */
  public java.util.Optional<Holder> lockHolder() {
    Result r = get(RunLock.LOCK);
    if (r.isEmpty()) {
      return java.util.Optional.empty();
    }
    var cell = r.getColumnLatestCell(FAMILY, RunLock.LOCK);
    return java.util.Optional.of(
        new Holder(
            Bytes.toString(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength()),
            cell.getTimestamp()));
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
          "cannot read the state of " + written + " in " + table + ": " + e.getMessage(), e);
    }
  }

  private void mutate(Put put, String what) {
    try (Table t = connection.getTable(table)) {
      t.put(put);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot " + what + " of " + written + " in " + table + ": " + e.getMessage(), e);
    }
  }
}
