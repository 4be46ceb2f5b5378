package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.SALTED;
import static io.rekey.rekey.RekeyIT.actual;
import static io.rekey.rekey.RekeyIT.connection;
import static io.rekey.rekey.RekeyIT.expected;
import static io.rekey.rekey.RekeyIT.job;
import static io.rekey.rekey.RekeyIT.messages;
import static io.rekey.rekey.RekeyIT.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.ReadMode;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLockedException;
import io.rekey.spark.Faults;
import io.rekey.testing.InJvmFaults;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.spark.TaskContext;
import org.junit.jupiter.api.Test;

/**
 * What rekey refuses, and what it leaves behind when it does: a second run of the same target, a
 * namespace that does not exist, too many rejects (stopped early); snapshots and empty targets of
 * failed runs are removed.
 */
class RekeyRefusalsIT extends OnMiniCluster {

  private static List<String> snapshotsOf(String source) throws Exception {
    List<String> names = new ArrayList<>();
    try (Admin admin = connection.getAdmin()) {
      admin.listSnapshots().forEach(s -> names.add(s.getName()));
    }
    return names.stream().filter(n -> n.contains(source)).toList();
  }

  /**
   * Issue 52, item 4: a snapshot read whose restore fails (here hbase.rootdir names another
   * directory, as a wrong --hbase-set would) removes the snapshot it took and its restore
   * directory, for verify as for every job that reads through {@code TableRead}.
   */
  @Test
  void aSnapshotReadWhoseRestoreFailsLeavesNoSnapshotOrRestoreDirectoryBehind() throws Exception {
    messages("rr_restore_src", 50);
    job(options("rr_restore_src", "rr_restore_dst", SALTED)).execute();
    List<String> before = snapshotsOf("rr_restore_src");
    org.apache.hadoop.conf.Configuration wrong =
        new org.apache.hadoop.conf.Configuration(RekeyIT.conf);
    java.nio.file.Path elsewhere = java.nio.file.Files.createTempDirectory("not-the-rootdir");
    wrong.set("hbase.rootdir", elsewhere.toUri().toString());
    org.apache.hadoop.fs.Path staging = RunFiles.staging(RekeyIT.conf, null);
    io.rekey.verify.VerifyOptions verify =
        new io.rekey.verify.VerifyOptions(
            TableName.valueOf("rr_restore_src"),
            TableName.valueOf("rr_restore_dst"),
            options("rr_restore_src", "rr_restore_dst", SALTED).mapping(),
            ReadMode.SNAPSHOT,
            1000,
            false,
            null,
            options("rr_restore_src", "rr_restore_dst", SALTED).stateTable(),
            null,
            false);
    for (int attempt = 0; attempt < 2; attempt++) {
      assertThatThrownBy(
              () ->
                  io.rekey.verify.VerifyJob.tables(
                      SparkLocal.job(connection, wrong), verify, staging))
          .isInstanceOf(RuntimeException.class);
      assertThat(snapshotsOf("rr_restore_src")).isEqualTo(before);
    }
    org.apache.hadoop.fs.FileSystem fs = staging.getFileSystem(RekeyIT.conf);
    if (fs.exists(staging)) {
      for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(staging)) {
        assertThat(f.getPath().getName()).doesNotStartWith("restore-rekey-verify-rr_restore_src");
      }
    }
  }

  @Test
  void aSecondRunOfTheSameTargetExitsLockedAndTheFirstCompletes() throws Exception {
    TableName source = messages("rr_lock_src", 200);
    RekeyOptions options = options("rr_lock_src", "rr_lock_dst", SALTED);
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Faults holdPartitionZero =
        InJvmFaults.of(
            (point, partition, attempt) -> {
              if (point == Faults.Point.WRITER_MIDFILE && partition == 0) {
                writing.countDown();
                release.await(60, TimeUnit.SECONDS);
              }
            });
    CompletableFuture<RekeyResult> first =
        CompletableFuture.supplyAsync(() -> job(options, holdPartitionZero).execute());
    assertThat(writing.await(60, TimeUnit.SECONDS)).isTrue();

    assertThatThrownBy(() -> job(options).execute())
        .isInstanceOf(RunLockedException.class)
        .hasMessageContaining(
            "rr_lock_dst is locked by another run (rekey rr_lock_src -> rr_lock_dst")
        .hasMessageContaining("--break-lock");
    release.countDown();

    RekeyResult result = first.get(120, TimeUnit.SECONDS);
    assertThat(result.verify().matches()).isTrue();
    assertThat(result.stored().proven()).isTrue();
    assertThat(actual(TableName.valueOf("rr_lock_dst")))
        .isEqualTo(expected(source, options.mapping()));
  }

  @Test
  void aTargetInAMissingNamespaceIsRefusedUnlessAskedToCreateIt() throws Exception {
    messages("rr_ns_src", 20);
    assertThatThrownBy(() -> job(options("rr_ns_src", "rr_nosuchns:dst", SALTED)))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessage(
            "--target is 'rr_nosuchns:dst' but is in namespace 'rr_nosuchns', which does not"
                + " exist; check the name, create it ('create_namespace \"rr_nosuchns\"' in the HBase"
                + " shell) or pass --create-namespace");
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.listNamespaces()).doesNotContain("rr_nosuchns");
    }
    RekeyResult created =
        job(RekeyIT.rekeyOptions("rr_ns_src", "rr_nosuchns:dst", SALTED)
                .set(RekeyOptions.CREATE_NAMESPACE)
                .build())
            .execute();
    assertThat(created.verify().matches()).isTrue();
  }

  @Test
  void moreRejectsThanAllowedStopTheJobEarlyAndLeaveNoSnapshotOrEmptyTarget() throws Exception {
    TableName source = TableName.valueOf("rr_rej_src");
    TestTables.create(source, org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.of("m"));
    List<Put> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      // Every row's key lacks the source key's separators: each one is rejected.
      rows.add(
          new Put(RekeyIT.b("badkey" + i))
              .addColumn(RekeyIT.b("m"), RekeyIT.b("q"), RekeyIT.b("v")));
    }
    for (int i = 0; i < 50; i++) {
      rows.add(
          new Put(RekeyIT.b((RekeyIT.T0 + i) + "_user" + i + "_o" + i))
              .addColumn(RekeyIT.b("m"), RekeyIT.b("q"), RekeyIT.b("v")));
    }
    TestTables.put(source, rows);
    // Writers that would take a minute: a job that read and wrote everything before looking at
    // its rejects would take that long.
    Faults slowWriters =
        InJvmFaults.of(
            (point, partition, attempt) -> {
              if (point == Faults.Point.WRITER_MIDFILE) {
                for (int i = 0; i < 600 && !TaskContext.get().isInterrupted(); i++) {
                  Thread.sleep(100);
                }
              }
            });
    long started = System.nanoTime();
    assertThatThrownBy(
            () -> job(options("rr_rej_src", "rr_rej_dst", SALTED), slowWriters).execute())
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("rows could not be mapped, more than --max-rejects 0")
        .hasMessageContaining("nothing was loaded")
        .hasMessageContaining("rejects-*.tsv")
        .hasMessageContaining("removed the snapshot rekey-rr_rej_src-")
        .hasMessageContaining("dropped the empty target rr_rej_dst it had created");
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(45);
    assertThat(snapshotsOf("rr_rej_src")).isEmpty();
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.tableExists(TableName.valueOf("rr_rej_dst"))).isFalse();
    }
  }

  @Test
  void aStagingDirectoryTheUserCannotWriteIsRefusedBeforeAnySnapshotOrTable() throws Exception {
    messages("rr_perm_src", 20);
    // A directory of the superuser that others may only read, as /rekey-staging at the root of a
    // real HDFS is for an ordinary user; the job runs as that user.
    org.apache.hadoop.fs.Path locked = new org.apache.hadoop.fs.Path("/rr-perm-locked");
    org.apache.hadoop.fs.FileSystem fs = locked.getFileSystem(RekeyIT.conf);
    fs.mkdirs(locked, new org.apache.hadoop.fs.permission.FsPermission((short) 0755));
    RekeyOptions options =
        RekeyIT.rekeyOptions("rr_perm_src", "rr_perm_dst", SALTED)
            .set(RekeyOptions.STAGING, locked.toString())
            .build();
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    assertThatThrownBy(
            () -> alice.doAs((PrivilegedExceptionAction<?>) () -> job(options).execute()))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("user alice cannot write in the staging directory hdfs://")
        .hasMessageContaining("/rr-perm-locked (")
        .hasMessageContaining("Permission denied")
        .hasMessageContaining("Nothing was done. Give --staging a directory this user can write");
    assertThat(snapshotsOf("rr_perm_src")).isEmpty();
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.tableExists(TableName.valueOf("rr_perm_dst"))).isFalse();
    }
  }

  @Test
  void aStagingDirectoryOnTheLocalDiskIsRefusedWhenExecutorsRunElsewhere() {
    org.apache.hadoop.fs.Path local = new org.apache.hadoop.fs.Path("file:///tmp/rekey-staging");
    assertThatThrownBy(() -> RunFiles.checkUsable(RekeyIT.conf, local, "spark://master:7077"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageStartingWith(
            "the staging directory file:/tmp/rekey-staging is on the local disk, but the Spark"
                + " master is spark://master:7077")
        .hasMessageContaining("Give --staging a directory on the cluster's filesystem");
    RunFiles.checkUsable(RekeyIT.conf, local, "local[2]");
  }
}
