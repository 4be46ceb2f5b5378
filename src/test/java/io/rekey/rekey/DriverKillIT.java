package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.actual;
import static io.rekey.rekey.RekeyIT.expected;
import static io.rekey.rekey.RekeyIT.messages;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.run.RunFiles;
import io.rekey.testing.ChildJvm;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.RefuseBulkLoads;
import io.rekey.testing.TestTables;
import io.rekey.write.Ledger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's driver killed with SIGKILL, as a child JVM: once while its tasks write HFiles, once
 * while it bulk-loads them (after some regions loaded). The same command again completes: the lock
 * of the dead run is taken over, nothing is loaded twice, the target equals the source cell by cell
 * and the store files hold exactly the cells written.
 */
@LongTier
class DriverKillIT extends OnMiniCluster {
  static final String SOURCE_KEY = "text: ts:long + '_' + user + '_' + order";
  static final String TARGET_KEY = "salt(2, user) + user + reverse_ts(ts) + order";

  @TempDir java.nio.file.Path dir;

  /** The rekey command line against the mini cluster. */
  static List<String> rekey(String source, String target) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "rekey",
                "--source",
                source,
                "--target",
                target,
                "--source-key",
                SOURCE_KEY,
                "--target-key",
                TARGET_KEY,
                "--zk",
                MiniHBase.zkQuorum()));
    MiniHBase.settings()
        .properties()
        .forEach((k, v) -> args.addAll(List.of("--hbase-set", k + "=" + v)));
    // HBase's client retries a refused region with back-off; keep the pauses short.
    args.addAll(List.of("--hbase-set", "hbase.client.pause=100"));
    return args;
  }

  /** Starts the CLI in a JVM of its own, with this JVM's classpath and JDK 17 flags. */
  private Process start(List<String> args, String log) throws Exception {
    return ChildJvm.localCli(args, dir.resolve(log));
  }

  private String output(String log) throws Exception {
    return Files.readString(dir.resolve(log));
  }

  /** Waits until {@code condition} holds while {@code p} runs; false when p ended first. */
  private static boolean awaitWhileRunning(Process p, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline && p.isAlive()) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  private static long cellsIn(TableName table) {
    try {
      return TestTables.countCells(table);
    } catch (Exception e) {
      return 0;
    }
  }

  private static Path runDir(String source, String target) throws Exception {
    return new Path(RunFiles.staging(RekeyIT.conf, null), target + "-from-" + source);
  }

  private static boolean exists(Path p) {
    try {
      FileSystem fs = p.getFileSystem(RekeyIT.conf);
      return fs.exists(p)
          && (!fs.getFileStatus(p).isDirectory() || fs.listFiles(p, true).hasNext());
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * The run whose output is {@code out} verified MATCH and counted as many cells in the store files
   * as it wrote; the target equals the source cell by cell; no snapshot of the source is left.
   */
  static void assertCopiedExactlyOnce(TableName source, TableName target, String out)
      throws Exception {
    assertThat(out).contains("verify         MATCH", "in the store   stored ");
    String stored = out.substring(out.indexOf("in the store   stored ") + 22).split(" ")[0];
    String written = out.substring(out.indexOf(" = written ") + 11).split(" ")[0];
    assertThat(stored).isEqualTo(written);
    assertThat(actual(target))
        .isEqualTo(expected(source, RekeyOptions.mapping(SOURCE_KEY, TARGET_KEY)));
    try (Admin admin = RekeyIT.connection.getAdmin()) {
      assertThat(admin.listSnapshots())
          .noneMatch(s -> s.getName().contains(source.getNameAsString()));
    }
  }

  @Test
  void killedWhileWritingThenRunAgain() throws Exception {
    TableName source = messages("dk_write_src", 3000);
    Path run = runDir("dk_write_src", "dk_write_dst");
    Process first = start(rekey("dk_write_src", "dk_write_dst"), "first.log");
    boolean writing = awaitWhileRunning(first, () -> exists(new Path(run, "tmp")));
    assertThat(writing).as("the run reached the write: %s", output("first.log")).isTrue();
    first.destroyForcibly().waitFor();
    assertThat(first.exitValue()).isEqualTo(137);

    Process again = start(rekey("dk_write_src", "dk_write_dst"), "again.log");
    assertThat(again.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(again.exitValue()).as(output("again.log")).isZero();
    assertThat(output("again.log")).contains("took over the run lock of dk_write_dst");
    assertCopiedExactlyOnce(source, TableName.valueOf("dk_write_dst"), output("again.log"));
  }

  @Test
  void killedWhileLoadingAfterSomeRegionsLoadedThenRunAgain() throws Exception {
    TableName source = messages("dk_load_src", 600);
    TableName target = TableName.valueOf("dk_load_dst");
    // The target exists, empty, split per salt bucket; its second region refuses every load, so
    // the first region's files are in while the driver keeps retrying the second's.
    try (Admin admin = RekeyIT.connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(target)
              .setColumnFamily(RekeyIT.richFamily())
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("m"))
              .setCoprocessor(RefuseBulkLoads.class.getName())
              .build(),
          new byte[][] {{1}});
    }
    RefuseBulkLoads.regionStart = new byte[] {1};
    RefuseBulkLoads.refused.set(0);
    RefuseBulkLoads.refusals.set(Integer.MAX_VALUE);
    Path run = runDir("dk_load_src", "dk_load_dst");
    Process first = start(rekey("dk_load_src", "dk_load_dst"), "first.log");
    boolean loading =
        awaitWhileRunning(first, () -> RefuseBulkLoads.refused.get() > 0 && cellsIn(target) > 0);
    assertThat(loading).as("the run reached the load: %s", output("first.log")).isTrue();
    first.destroyForcibly().waitFor();
    Ledger ledger = Ledger.read(RekeyIT.conf, run);
    assertThat(ledger.loadAttempts()).isPositive();
    // Region one holds its files already: a rerun that loaded everything again would double them.
    assertThat(TestTables.countCells(target)).isPositive();

    RefuseBulkLoads.refusals.set(0);
    Process again = start(rekey("dk_load_src", "dk_load_dst"), "again.log");
    assertThat(again.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(again.exitValue()).as(output("again.log")).isZero();
    assertThat(output("again.log"))
        .contains("took over the run lock of dk_load_dst", "was loaded by an earlier attempt");
    assertCopiedExactlyOnce(source, target, output("again.log"));
  }
}
