package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.testing.MiniHBase;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.master.locking.LockManager;
import org.apache.hadoop.hbase.master.snapshot.TakeSnapshotHandler;
import org.apache.hadoop.hbase.procedure2.LockType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Snapshots while another operation holds the table's lock, on the mini cluster: the test takes the
 * master's exclusive lock on the table itself, as an alter or a stuck lock procedure would, and
 * shortens the master's wait for it so that each attempt fails in 1.5 s instead of a minute.
 */
@ExtendWith(MiniHBase.class)
class TableAdminIT {
  static final long LOCK_WAIT_MILLIS = 1500;

  static Connection connection;
  static Configuration masterConf;
  static String lockWaitBefore;

  @BeforeAll
  static void setUp() throws Exception {
    connection = HBaseConnections.open(MiniHBase.settings());
    masterConf = MiniHBase.util().getMiniHBaseCluster().getMaster().getConfiguration();
    lockWaitBefore = masterConf.get(TakeSnapshotHandler.HBASE_SNAPSHOT_MASTER_LOCK_ACQUIRE_TIMEOUT);
    masterConf.setLong(
        TakeSnapshotHandler.HBASE_SNAPSHOT_MASTER_LOCK_ACQUIRE_TIMEOUT, LOCK_WAIT_MILLIS);
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (lockWaitBefore == null) {
      masterConf.unset(TakeSnapshotHandler.HBASE_SNAPSHOT_MASTER_LOCK_ACQUIRE_TIMEOUT);
    } else {
      masterConf.set(
          TakeSnapshotHandler.HBASE_SNAPSHOT_MASTER_LOCK_ACQUIRE_TIMEOUT, lockWaitBefore);
    }
    connection.close();
  }

  static TableName table() throws Exception {
    TableName t = MiniHBase.uniqueTable("locked");
    MiniHBase.util().createTable(t, "m");
    return t;
  }

  static LockManager.MasterLock exclusiveLock(TableName t) throws Exception {
    LockManager.MasterLock lock =
        MiniHBase.util()
            .getMiniHBaseCluster()
            .getMaster()
            .getLockManager()
            .createMasterLock(t, LockType.EXCLUSIVE, "TableAdminIT: another operation");
    assertThat(lock.tryAcquire(30_000)).isTrue();
    return lock;
  }

  @Test
  void aSnapshotWaitsOutALockThatIsReleasedBetweenAttempts() throws Exception {
    TableName t = table();
    TableAdmin admin = new TableAdmin(connection);
    LockManager.MasterLock lock = exclusiveLock(t);
    long started = System.nanoTime();
    CompletableFuture<Void> snapshot =
        CompletableFuture.runAsync(() -> admin.snapshot(t, "locked-then-free"));
    try {
      // Longer than one attempt's wait: the first attempt has failed when the lock goes.
      Thread.sleep(LOCK_WAIT_MILLIS + 1000);
      assertThat(snapshot).isNotDone();
    } finally {
      lock.release();
    }
    snapshot.get(60, TimeUnit.SECONDS);

    assertThat(System.nanoTime() - started).isGreaterThan((LOCK_WAIT_MILLIS + 1000) * 1_000_000);
    assertThat(admin.snapshotExists("locked-then-free")).isTrue();
    admin.deleteSnapshot("locked-then-free");
  }

  @Test
  void aLockHeldThroughEveryAttemptFailsNamingTheLockAndTheWayOut() throws Exception {
    TableName t = table();
    TableAdmin admin = new TableAdmin(connection);
    LockManager.MasterLock lock = exclusiveLock(t);
    try {
      assertThatThrownBy(() -> admin.snapshot(t, "never-free"))
          .isInstanceOf(RekeyException.class)
          .hasMessageContaining("cannot take snapshot never-free of " + t)
          .hasMessageContaining(
              "held the table's lock through " + TableAdmin.SNAPSHOT_ATTEMPTS + " attempts")
          .hasMessageContaining("--live-scan");
    } finally {
      lock.release();
    }
    assertThat(admin.snapshotExists("never-free")).isFalse();
  }

  @Test
  void otherSnapshotFailuresAreNotRetried() {
    TableAdmin admin = new TableAdmin(connection);
    long started = System.nanoTime();
    assertThatThrownBy(() -> admin.snapshot(TableName.valueOf("no_such_table"), "nothing"))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("cannot take snapshot nothing of no_such_table")
        .hasMessageNotContaining("attempts");
    assertThat(System.nanoTime() - started).isLessThan(LOCK_WAIT_MILLIS * 1_000_000);
  }

  @Test
  void aTableCreationTheMasterCannotFinishStopsAtTheBoundWithALine() throws Exception {
    TableName t = MiniHBase.uniqueTable("stuck");
    // The create procedure waits for the table's lock, as it would for a master that went away.
    LockManager.MasterLock lock = exclusiveLock(t);
    java.util.Map<String, String> props =
        new java.util.HashMap<>(MiniHBase.settings().properties());
    props.put("hbase.client.sync.wait.timeout.msec", "2000");
    try (Connection quick =
        HBaseConnections.open(new HBaseSettings(MiniHBase.zkQuorum(), null, props))) {
      TableAdmin admin = new TableAdmin(quick);
      long started = System.nanoTime();
      assertThatThrownBy(
              () ->
                  admin.create(
                      org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(t)
                          .setColumnFamily(
                              org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.of("m"))
                          .build(),
                      java.util.List.of()))
          .isInstanceOf(RekeyException.class)
          .hasMessage(
              "the master did not finish creating "
                  + t
                  + " within 2 s (hbase.client.sync.wait.timeout.msec); check that HBase is up"
                  + " ('hbase-rekey status'), then rerun the same command");
      assertThat(System.nanoTime() - started).isLessThan(30_000_000_000L);
    } finally {
      lock.release();
    }
  }
}
