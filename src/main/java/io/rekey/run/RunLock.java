package io.rekey.run;

import io.rekey.common.RekeyException;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.OptionDef;
import io.rekey.security.DelegationTokens;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock that keeps two runs writing one table apart: a rekey into it, a build or update of it as
 * an index. It is a cell in the state table ({@code --state-table}), in the row named after the
 * table written, taken and released with check-and-mutate, so of two runs that start together
 * exactly one gets it; its value says who holds it (what, process, host, Spark application, since
 * when). Closing it releases it, if it is still this run's. A lock whose holder is provably dead (a
 * process of this host that no longer runs) is taken over with a warning; any other needs {@code
 * --break-lock}.
 */
public final class RunLock implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunLock.class);

  /** The table of locks, watermarks and run histories, shared by every job. */
  public static final OptionDef<String> STATE_TABLE =
      OptionDef.text(
              "state-table", "NS:TABLE", "where run locks, index watermarks and run histories live")
          .withDefault("rekey_index_state");

  public static final OptionDef<Boolean> BREAK_LOCK =
      OptionDef.flag(
          "break-lock", "take the table's run lock even when held (only when that run is dead)");

  /** The state table's family. */
  public static final byte[] FAMILY = Bytes.toBytes("s");

  static final byte[] LOCK = Bytes.toBytes("lock");

  private final Connection connection;
  private final TableName stateTable;
  private final byte[] row;
  private final byte[] value;

  private RunLock(Connection connection, TableName stateTable, byte[] row, byte[] value) {
    this.connection = connection;
    this.stateTable = stateTable;
    this.row = row;
    this.value = value;
  }

  /**
   * Takes the lock of {@code written}.
   *
   * @param purpose what the run does, shown to a run that finds the lock taken
   * @param application the Spark application id, or null
   * @param breakLock take it even when held (the holder died)
   * @throws RunLockedException when another run holds it
   */
  public static RunLock take(
      Connection connection,
      TableName stateTable,
      TableName written,
      String purpose,
      String application,
      boolean breakLock) {
    ensureStateTable(connection, stateTable);
    byte[] row = Bytes.toBytes(written.getNameAsString());
    byte[] value =
        Bytes.toBytes(
            purpose
                + " by "
                + whoAmI()
                + (application == null ? "" : ", Spark application " + application)
                + " since "
                + Instant.ofEpochMilli(System.currentTimeMillis()));
    Put put = new Put(row).addColumn(FAMILY, LOCK, value);
    try (Table t = connection.getTable(stateTable)) {
      if (breakLock) {
        t.put(put);
        return new RunLock(connection, stateTable, row, value);
      }
      boolean taken =
          t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(FAMILY, LOCK).build(put))
              .isSuccess();
      if (!taken) {
        byte[] holder = t.get(new Get(row).addColumn(FAMILY, LOCK)).getValue(FAMILY, LOCK);
        if (holder != null && deadHere(Bytes.toString(holder))) {
          // Its process is gone from this very host (killed, crashed): the lock is stale.
          boolean tookOver =
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row).ifEquals(FAMILY, LOCK, holder).build(put))
                  .isSuccess();
          if (tookOver) {
            LOG.warn(
                "took over the run lock of {}: its holder ({}) is no longer running on this host",
                written,
                Bytes.toString(holder));
            return new RunLock(connection, stateTable, row, value);
          }
          holder = t.get(new Get(row).addColumn(FAMILY, LOCK)).getValue(FAMILY, LOCK);
        }
        throw new RunLockedException(
            written
                + " is locked by another run ("
                + (holder == null ? "released just now" : Bytes.toString(holder))
                + "), so this run did nothing; try again when it has finished, or pass"
                + " --break-lock if that run is dead");
      }
      return new RunLock(connection, stateTable, row, value);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot take the run lock of " + written + " in " + stateTable + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    if (DelegationTokens.expired()) {
      // HBase's client would retry the release for minutes, refused the same way each time.
      LOG.warn(
          "left the run lock of {} in {}: the job's delegation tokens expired; a rerun on this"
              + " host takes it over once this process has ended, elsewhere pass --break-lock",
          Bytes.toString(row),
          stateTable);
      return;
    }
    try (Table t = connection.getTable(stateTable)) {
      t.checkAndMutate(
          CheckAndMutate.newBuilder(row)
              .ifEquals(FAMILY, LOCK, value)
              .build(new Delete(row).addColumns(FAMILY, LOCK)));
    } catch (IOException e) {
      throw new RekeyException(
          "cannot release the run lock of "
              + Bytes.toString(row)
              + " in "
              + stateTable
              + ": "
              + e.getMessage()
              + "; the next run will say who holds it and how to break it",
          e);
    }
  }

  /** Creates the state table when it is missing (one family, one version, never split). */
  public static void ensureStateTable(Connection connection, TableName table) {
    TableAdmin admin = new TableAdmin(connection);
    if (admin.exists(table)) {
      return;
    }
    try {
      admin.ensureNamespace(table.getNamespaceAsString());
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

  private static final Pattern HOLDER = Pattern.compile(" by pid (\\d+) on (\\S+?)(,| since)");

  /** Whether a lock value names a process of this host that no longer runs. */
  static boolean deadHere(String holder) {
    Matcher m = HOLDER.matcher(holder);
    if (!m.find() || !m.group(2).equals(hostName())) {
      return false;
    }
    return ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true);
  }

  /**
   * This host as a lock holder names it: its name, and on Linux the boot and the process namespace
   * ({@code name@boot:pidns}), since containers on several machines (or on one) can share a host
   * name, and a pid means something only in its own namespace of its own boot.
   */
  static String hostName() {
    String name;
    try {
      name = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      name = "unknown-host";
    }
    return name + processNamespace();
  }

  private static String processNamespace() {
    try {
      String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
      String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
      return "@" + boot.substring(0, Math.min(8, boot.length())) + ":" + ns.replaceAll("\\D", "");
    } catch (IOException | RuntimeException e) {
      return ""; // not Linux: the host name alone
    }
  }

  private static String whoAmI() {
    return "pid " + ManagementFactory.getRuntimeMXBean().getPid() + " on " + hostName();
  }
}
