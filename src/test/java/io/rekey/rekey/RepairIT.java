package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.b;
import static io.rekey.rekey.RekeyIT.connection;
import static io.rekey.rekey.SyncIT.BOUND_SOURCE;
import static io.rekey.rekey.SyncIT.BY_SENDER;
import static io.rekey.rekey.SyncIT.LAG_MILLIS;
import static io.rekey.rekey.SyncIT.SALTED;
import static io.rekey.rekey.SyncIT.SOURCE_KEY;
import static io.rekey.rekey.SyncIT.rekey;
import static io.rekey.rekey.SyncIT.row;
import static io.rekey.rekey.SyncIT.sync;
import static io.rekey.rekey.SyncIT.values;
import static io.rekey.rekey.SyncIT.verify;
import static io.rekey.rekey.SyncIT.watermark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.keys.KeyMapping;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.report.SyncText;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.junit.jupiter.api.Test;

/**
 * The end of a live migration on a real mini cluster: what a time window cannot see (rows stamped
 * in its past, deletes a compaction purged, rows that move and move back, a writer that did not
 * stop), {@code rekey repair} and {@code rekey sync --final --repair}, each judged against an
 * independent read of both tables, cell by cell, every version.
 */
@LongTier
class RepairIT extends OnMiniCluster {

  static RepairResult repair(OptionValues v) {
    RepairOptions options = RepairOptions.from(v.validate(RepairOptions.declared()));
    return new RepairJob(SparkLocal.job(connection, RekeyIT.conf), options).execute();
  }

  static io.rekey.verify.VerifyResult verifyUntil(String targetKey, long until) {
    return io.rekey.verify.VerifyJob.tables(
        SparkLocal.job(connection, RekeyIT.conf),
        new io.rekey.verify.VerifyOptions(
            TableName.valueOf("rp_pin_src"),
            TableName.valueOf("rp_pin_dst"),
            RekeyOptions.mapping(SOURCE_KEY, targetKey),
            ReadMode.SNAPSHOT,
            1000,
            false,
            until,
            SyncIT.STATE,
            null,
            false),
        io.rekey.run.RunFiles.staging(RekeyIT.conf, null));
  }

  static void put(TableName t, String row, String qualifier, long ts, String value)
      throws Exception {
    try (Table table = connection.getTable(t)) {
      table.put(new Put(b(row)).addColumn(b("m"), b(qualifier), ts, b(value)));
    }
  }

  static void waitOutTheLag() throws InterruptedException {
    Thread.sleep(LAG_MILLIS + 300);
  }

  @Test
  void aLiveMigrationEndsWithAFinalRepairAfterLateRowsPurgedDeletesMovesAndAWriterThatGoesOn()
      throws Exception {
    TableName source = SyncIT.messages("rp_live_src", 3);
    TableName target = TableName.valueOf("rp_live_dst");
    OptionValues v = values("rp_live_src", "rp_live_dst", BOUND_SOURCE, BY_SENDER);
    RekeyResult copy = rekey(v);
    // HBase's defaults purge delete markers at a major compaction: the copy says so, with the fix.
    assertThat(copy.syncWarnings())
        .singleElement()
        .asString()
        .contains("rp_live_src family m purges delete markers at once", "alter 'rp_live_src'");
    KeyMapping mapping = KeyMapping.parse(BOUND_SOURCE, BY_SENDER);
    String mover = row(source, 4);
    long now = System.currentTimeMillis();
    put(source, mover, "sender", now, "zed");
    put(source, now + "_o100", "sender", now, "user1");
    put(source, now + "_o100", "body", now, "new");
    waitOutTheLag();
    assertThat(sync(v.with("write", "hfiles")).windows().get(0).stored().proven()).isTrue();
    // The row moves back to its first sender.
    put(source, mover, "sender", System.currentTimeMillis(), "user1");
    // Rows loaded with their own, older timestamps (a backfill): behind every window.
    long old = System.currentTimeMillis() - 1_800_000;
    put(source, old + "_o200", "sender", old, "user2");
    put(source, old + "_o200", "body", old, "backfilled");
    put(source, row(source, 7), "body", old, "late body");
    // Two rows deleted and the markers purged by a major compaction before the sync reads them.
    try (Table t = connection.getTable(source)) {
      t.delete(new Delete(b(row(source, 10))));
      t.delete(new Delete(b(row(source, 11))));
    }
    MiniHBase.util().flush(source);
    MiniHBase.util().compact(source, true);
    waitOutTheLag();
    SyncResult second = sync(v);
    assertThat(second.totals().rowsMoved()).isEqualTo(1);
    assertThat(second.totals().deletesRead()).isZero(); // the two deletes were purged
    assertThat(verify("rp_live_src", "rp_live_dst", BOUND_SOURCE, BY_SENDER, false).matches())
        .isFalse();

    // The writers are told to stop at T, but one more row comes in after it.
    long stoppedAt = System.currentTimeMillis();
    Thread.sleep(20);
    long straggler = System.currentTimeMillis();
    put(source, straggler + "_o300", "sender", straggler, "user0");
    put(source, straggler + "_o300", "body", straggler, "too late");
    Thread.sleep(Math.max(0, stoppedAt + LAG_MILLIS + 300 - System.currentTimeMillis()));
    long before = watermark("rp_live_dst");
    List<String> targetBefore = RekeyIT.rawCells(target, null);
    assertThatThrownBy(
            () ->
                sync(
                    v.with("final", "true")
                        .with("repair", "true")
                        .with("writes-stopped-at", String.valueOf(stoppedAt))))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("1 rows of rp_live_src hold cells stamped at or after")
        .hasMessageContaining("_o300")
        .hasMessageContaining("writers have not stopped");
    assertThat(watermark("rp_live_dst")).isEqualTo(before);
    assertThat(RekeyIT.rawCells(target, null)).isEqualTo(targetBefore);

    // Stopped for real: the last window, the verify finds what no window saw, the repair writes
    // exactly that, and the verify after it matches.
    long stopped = straggler + 1;
    Thread.sleep(Math.max(0, stopped + LAG_MILLIS + 300 - System.currentTimeMillis()));
    SyncResult last =
        sync(
            v.with("final", "true")
                .with("repair", "true")
                .with("writes-stopped-at", String.valueOf(stopped)));
    String text = SyncText.sync(last);
    assertThat(last.verify().matches()).as(text).isFalse();
    RepairResult r = last.repair();
    assertThat(r.rowsMissing()).as(text).isEqualTo(1); // the backfilled row
    assertThat(r.rowsDifferent()).as(text).isEqualTo(1); // the late body
    assertThat(r.rowsExtra()).as(text).isEqualTo(2); // the purged deletes
    assertThat(r.cellsMasked()).isZero();
    assertThat(last.switchSafe()).as(text).isTrue();
    assertThat(text).contains("readers and writers can be switched");
    // Independently: every version a read returns, each row under its key, and the mover under
    // its first key with all its cells (no ghost under zed's).
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    assertThat(TestTables.cells(target))
        .noneMatch(c -> c.startsWith("zed"))
        .anyMatch(c -> c.startsWith("user1") && c.contains("o4/m:body/"));
    // A repair of equal tables writes nothing.
    RepairResult again = repair(v.with("until", String.valueOf(stopped)));
    assertThat(again.rowsDiffering()).isZero();
    assertThat(again.cellsWritten()).isZero();
    assertThat(again.verify().matches()).isTrue();
  }

  @Test
  void aDryRunCountsByKindAndWritesNothingThenTheRepairMakesTheTablesEqualAndASecondWritesNothing()
      throws Exception {
    TableName source = SyncIT.orders("rp_dry_src", 200);
    TableName target = TableName.valueOf("rp_dry_dst");
    OptionValues v = values("rp_dry_src", "rp_dry_dst", SOURCE_KEY, SALTED);
    rekey(v);
    KeyMapping mapping = KeyMapping.parse(SOURCE_KEY, SALTED);
    long old = System.currentTimeMillis() - 7_200_000;
    // A late row, a late version, and a hand edit of the target: a bogus row and a changed cell.
    try (Table t = connection.getTable(source)) {
      t.put(new Put(b(old + "_user3_late")).addColumn(b("d"), b("v"), old, b("late")));
      t.put(new Put(b(row(source, 5))).addColumn(b("d"), b("w"), old, b("late w")));
    }
    String someTargetRow = TestTables.cells(target).get(0);
    String targetRow = someTargetRow.substring(0, someTargetRow.indexOf('/'));
    try (Table t = connection.getTable(target)) {
      t.put(new Put(b("zz_bogus")).addColumn(b("m"), b("note"), 5, b("nobody wrote this")));
      t.put(new Put(Bytes.toBytesBinary(targetRow)).addColumn(b("m"), b("extra"), 6, b("x")));
    }
    List<String> targetBefore = RekeyIT.rawCells(target, null);
    RepairResult dry = repair(v.with("dry-run", "true"));
    assertThat(dry.rowsMissing()).isEqualTo(1);
    assertThat(dry.rowsDifferent()).isEqualTo(2);
    assertThat(dry.rowsExtra()).isEqualTo(1);
    assertThat(dry.cellsPut()).isEqualTo(2);
    assertThat(dry.cellsDeleted()).isEqualTo(2);
    assertThat(dry.cellsWritten()).isZero();
    assertThat(dry.examples()).hasSize(4);
    assertThat(RekeyIT.rawCells(target, null)).isEqualTo(targetBefore);

    RepairResult fixed = repair(v);
    assertThat(fixed.cellsWritten()).isEqualTo(4);
    assertThat(fixed.verify().matches()).isTrue();
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    RepairResult again = repair(v);
    assertThat(again.rowsDiffering()).isZero();
    assertThat(again.cellsWritten()).isZero();
  }

  @Test
  void aRowThatMovesAwayAndBackKeepsEveryCellThroughAMajorCompactionOfTheTarget() throws Exception {
    TableName source = SyncIT.messages("rp_back_src", 3);
    TableName target = TableName.valueOf("rp_back_dst");
    OptionValues v = values("rp_back_src", "rp_back_dst", BOUND_SOURCE, BY_SENDER);
    rekey(v);
    String mover = row(source, 3);
    long now = System.currentTimeMillis();
    put(source, mover, "sender", now, "alice");
    waitOutTheLag();
    sync(v);
    put(source, mover, "sender", System.currentTimeMillis(), "user0");
    waitOutTheLag();
    SyncResult back = sync(v.with("write", "hfiles"));
    assertThat(back.totals().rowsMoved()).isEqualTo(1);
    KeyMapping mapping = KeyMapping.parse(BOUND_SOURCE, BY_SENDER);
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    MiniHBase.util().flush(target);
    MiniHBase.util().compact(target, true);
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    assertThat(verify("rp_back_src", "rp_back_dst", BOUND_SOURCE, BY_SENDER, false).matches())
        .isTrue();
  }

  @Test
  void aRowWrittenWithinTheLagBeforeTheCopyAndMovedAfterItLeavesNoGhost() throws Exception {
    TableName source = SyncIT.messages("rp_ghost_src", 3);
    TableName target = TableName.valueOf("rp_ghost_dst");
    long now = System.currentTimeMillis();
    put(source, now + "_o500", "sender", now, "alice");
    put(source, now + "_o500", "body", now, "hello");
    OptionValues v = values("rp_ghost_src", "rp_ghost_dst", BOUND_SOURCE, BY_SENDER);
    rekey(v);
    put(source, now + "_o500", "sender", System.currentTimeMillis(), "bob");
    waitOutTheLag();
    SyncResult r = sync(v);
    assertThat(r.totals().rowsMoved()).isEqualTo(1);
    assertThat(TestTables.cells(target)).noneMatch(c -> c.startsWith("alice"));
    assertThat(RekeyIT.actual(target))
        .isEqualTo(RekeyIT.expected(source, KeyMapping.parse(BOUND_SOURCE, BY_SENDER)));
  }

  @Test
  void aRawCopyKeysARowByTheValueAReadReturnsNotByADeletedVersion() throws Exception {
    TableName source = TableName.valueOf("rp_raw_src");
    TestTables.create(
        source, ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setMaxVersions(3).build());
    put(source, "1000_o1", "sender", 1000, "alice");
    put(source, "1000_o1", "sender", 2000, "bob");
    put(source, "1000_o1", "body", 1000, "hi");
    try (Table t = connection.getTable(source)) {
      t.delete(new Delete(b("1000_o1")).addColumn(b("m"), b("sender"), 2000));
    }
    OptionValues v = values("rp_raw_src", "rp_raw_dst", BOUND_SOURCE, BY_SENDER, "raw", "true");
    RekeyResult copy = rekey(v);
    assertThat(copy.verify().matches()).isTrue();
    assertThat(TestTables.cells(TableName.valueOf("rp_raw_dst")))
        .isNotEmpty()
        .allMatch(c -> c.startsWith("alice"));
    assertThat(verify("rp_raw_src", "rp_raw_dst", BOUND_SOURCE, BY_SENDER, false).matches())
        .isTrue();
  }

  @Test
  void anotherMappingIsRefusedInOneLineAndRekeyAgainKeepsTheWatermark() throws Exception {
    SyncIT.orders("rp_pin_src", 50);
    OptionValues v = values("rp_pin_src", "rp_pin_dst", SOURCE_KEY, SALTED);
    rekey(v);
    long first = watermark("rp_pin_dst");
    waitOutTheLag();
    sync(v);
    long moved = watermark("rp_pin_dst");
    assertThat(moved).isGreaterThan(first);
    OptionValues other =
        OptionValues.empty()
            .with("target-key", "salt(8, user) + user + reverse_ts(ts) + order")
            .over(v);
    for (Runnable refused :
        List.<Runnable>of(() -> sync(other), () -> repair(other), () -> rekey(other))) {
      assertThatThrownBy(refused::run)
          .isInstanceOf(InvalidOptionException.class)
          .hasMessageStartingWith("--target-key is 'salt(8")
          .hasMessageContaining("differs from what rp_pin_dst was copied with (salt(4")
          .hasMessageContaining("start a new migration");
    }
    assertThatThrownBy(() -> verifyUntil("salt(8, user) + user + reverse_ts(ts) + order", moved))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("differs from what rp_pin_dst was copied with");
    assertThat(watermark("rp_pin_dst")).isEqualTo(moved);
    // A row deleted after T: as of T both tables still hold it (the marker is not applied below
    // T), so a verify --until T matches while the delete waits for the next sync.
    try (Table t = connection.getTable(TableName.valueOf("rp_pin_src"))) {
      t.delete(new Delete(b(row(TableName.valueOf("rp_pin_src"), 3))));
    }
    assertThat(verifyUntil(SALTED, moved).matches()).isTrue();
    assertThat(verify("rp_pin_src", "rp_pin_dst", SOURCE_KEY, SALTED, false).matches()).isFalse();
    // The copy's own command again finds its run loaded and leaves the syncs' watermark alone.
    RekeyResult again = rekey(v);
    assertThat(again.resumed()).isTrue();
    assertThat(watermark("rp_pin_dst")).isEqualTo(moved);
  }

  /**
   * The region server's clock is set 5 s ahead (HBase's own clock seam, in the mini cluster's JVM):
   * with a 2 s safety lag, a sync is refused with the skew it measured.
   */
  @Test
  void aRegionServerClockFarFromTheDriversIsRefusedWithTheSkewMeasured() throws Exception {
    SyncIT.orders("rp_clock_src", 20);
    OptionValues v = values("rp_clock_src", "rp_clock_dst", SOURCE_KEY, SALTED);
    rekey(v);
    long before = watermark("rp_clock_dst");
    waitOutTheLag();
    EnvironmentEdgeManager.injectEdge(() -> System.currentTimeMillis() + 5_000);
    try {
      assertThatThrownBy(() -> sync(v))
          .isInstanceOf(RekeyException.class)
          .hasMessageContaining("stamps cells")
          .hasMessageContaining("ahead of this driver's clock, more than a third of the safety lag")
          .hasMessageContaining("raise --safety-lag to at least");
    } finally {
      EnvironmentEdgeManager.reset();
    }
    assertThat(watermark("rp_clock_dst")).isEqualTo(before);
    // What the skewed clock stamped (the lock's release, the history) is 5 s in the future: once
    // the real clock has passed it, the clocks agree and the sync runs.
    Thread.sleep(5_500);
    assertThat(sync(v).watermarkAfter()).isGreaterThan(before);
  }
}
