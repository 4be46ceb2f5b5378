package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.b;
import static io.rekey.rekey.RekeyIT.connection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.cli.ExitCode;
import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.keys.KeyMapping;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.report.RepairText;
import io.rekey.report.SyncText;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunLockedException;
import io.rekey.run.RunState;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import io.rekey.verify.VerifyResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;

/**
 * A live migration on a real mini cluster: {@code rekey} copies a table while a writer keeps
 * writing and deleting, {@code rekey sync} catches the copy up window by window, and {@code sync
 * --final} proves the target holds what the source holds, normal and raw, cell for cell.
 */
class SyncIT extends OnMiniCluster {
  static final String STATE = "sync_state";
  static final String SOURCE_KEY = "text: ts:long + '_' + user + '_' + order";
  static final String SALTED = "salt(4, user) + user + reverse_ts(ts) + order";
  static final String BOUND_SOURCE = "text: ts:long + '_' + order ; sender = m:sender";
  static final String BY_SENDER = "sender + reverse_ts(ts) + order";
  static final String TEXT_BY_SENDER = "text: sender + '_' + reverse_ts(ts) + '_' + order";
  static final long LAG_MILLIS = 2_000;
  static final String PURGE_DELETES = "hbase.hstore.time.to.purge.deletes";

  static OptionValues values(
      String source, String target, String sourceKey, String targetKey, String... more) {
    OptionValues v =
        OptionValues.empty()
            .with("source", source)
            .with("target", target)
            .with("source-key", sourceKey)
            .with("target-key", targetKey)
            .with("state-table", STATE)
            .with("safety-lag", String.valueOf(LAG_MILLIS / 1000))
            .with("allow-short-lag", "true");
    for (int i = 0; i < more.length; i += 2) {
      v = v.with(more[i], more[i + 1]);
    }
    return v;
  }

  static RekeyResult rekey(OptionValues v) {
    RekeyOptions options = RekeyOptions.from(v.validate(RekeyOptions.declared()));
    return RekeyIT.job(options).execute();
  }

  static SyncResult sync(OptionValues v) {
    SyncOptions options = SyncOptions.from(v.validate(SyncOptions.declared()));
    return new SyncJob(SparkLocal.job(connection, RekeyIT.conf), options).execute();
  }

  static long watermark(String target) {
    return new RunState(connection, TableName.valueOf(STATE), TableName.valueOf(target))
        .watermark()
        .getAsLong();
  }

  static VerifyResult verify(
      String source, String target, String sourceKey, String targetKey, boolean raw) {
    VerifyOptions options =
        new VerifyOptions(
            TableName.valueOf(source),
            TableName.valueOf(target),
            RekeyOptions.mapping(sourceKey, targetKey),
            ReadMode.SNAPSHOT,
            1000,
            raw,
            null,
            STATE,
            null,
            false);
    return VerifyJob.tables(
        SparkLocal.job(connection, RekeyIT.conf), options, RunFiles.staging(RekeyIT.conf, null));
  }

  /**
   * A table of {@code rows} rows {@code ts_userN_oN}, d (3 versions) and m, written an hour ago.
   */
  static TableName orders(String name, int rows) throws Exception {
    TableName t = TableName.valueOf(name);
    // Delete markers kept for an hour after a major compaction (HBase purges them at once by
    // default), so the raw comparison sees them on both sides; the target copies the setting.
    TestTables.create(
        t,
        ColumnFamilyDescriptorBuilder.newBuilder(b("d"))
            .setMaxVersions(3)
            .setConfiguration(PURGE_DELETES, "3600000")
            .build(),
        ColumnFamilyDescriptorBuilder.newBuilder(b("m"))
            .setConfiguration(PURGE_DELETES, "3600000")
            .build());
    long t0 = System.currentTimeMillis() - 3_600_000;
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long ts = t0 + i;
      Put p = new Put(b(ts + "_user" + (i % 7) + "_o" + i));
      p.addColumn(b("d"), b("v"), ts, b("v" + i));
      p.addColumn(b("d"), b("v"), ts + 1, b("v" + i + "'"));
      p.addColumn(b("d"), b("w"), ts, b("w" + i));
      p.addColumn(b("m"), b("note"), ts, b("n" + i));
      puts.add(p);
    }
    TestTables.put(t, puts);
    return t;
  }

  /** The kinds of change the writer makes. */
  enum Change {
    NEW_ROW,
    NEW_VERSION,
    DELETE_ROW,
    DELETE_FAMILY,
    DELETE_COLUMN,
    DELETE_VERSION,
    DELETE_FAMILY_VERSION
  }

  /**
   * Writes to {@code table} until stopped: new rows, new versions, and every kind of delete, on
   * rows of the copy and on its own. Cell times are its own clock (never twice the same), and a
   * delete of one version only names a version written within the safety lag: a version older than
   * the watermark is what no time window can see (the README says so).
   */
  static final class Writer extends Thread {
    final TableName table;
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong last = new AtomicLong();
    final EnumSet<Change> made = EnumSet.noneOf(Change.class);
    final List<String> existing;
    final ArrayDeque<long[]> recent = new ArrayDeque<>();
    final List<String> recentRows = new ArrayList<>();
    volatile Exception failure;
    int changes;

    Writer(TableName table, List<String> existing) {
      this.table = table;
      this.existing = existing;
      setDaemon(true);
    }

    long now() {
      return last.updateAndGet(l -> Math.max(l + 1, System.currentTimeMillis()));
    }

    @Override
    public void run() {
      SplittableRandom random = new SplittableRandom(42);
      try (Table t = connection.getTable(table)) {
        int n = 0;
        while (!stop.get()) {
          Change change = Change.values()[random.nextInt(Change.values().length)];
          String row = existing.get(random.nextInt(existing.size()));
          long ts = now();
          switch (change) {
            case NEW_ROW -> {
              String fresh = ts + "_user" + random.nextInt(7) + "_w" + n++;
              t.put(
                  new Put(b(fresh))
                      .addColumn(b("d"), b("v"), ts, b("new" + n))
                      .addColumn(b("m"), b("note"), ts, b("note" + n)));
              synchronized (recent) {
                recent.add(new long[] {ts, recentRows.size()});
                recentRows.add(fresh);
              }
            }
            case NEW_VERSION -> {
              t.put(new Put(b(row)).addColumn(b("d"), b("v"), ts, b("again" + ts)));
              synchronized (recent) {
                recent.add(new long[] {ts, recentRows.size()});
                recentRows.add(row);
              }
            }
            case DELETE_ROW -> t.delete(new Delete(b(row), ts));
            case DELETE_FAMILY -> t.delete(new Delete(b(row)).addFamily(b("m"), ts));
            case DELETE_COLUMN -> t.delete(new Delete(b(row)).addColumns(b("d"), b("w"), ts));
            case DELETE_VERSION, DELETE_FAMILY_VERSION -> {
              long[] pick = recentVersion(ts);
              if (pick == null) {
                continue;
              }
              byte[] r = b(recentRows.get((int) pick[1]));
              t.delete(
                  change == Change.DELETE_VERSION
                      ? new Delete(r).addColumn(b("d"), b("v"), pick[0])
                      : new Delete(r).addFamilyVersion(b("d"), pick[0]));
            }
          }
          made.add(change);
          changes++;
          Thread.sleep(3);
        }
      } catch (Exception e) {
        failure = e;
      }
    }

    /** A version written less than half the safety lag ago, or null. */
    private long[] recentVersion(long now) {
      synchronized (recent) {
        while (!recent.isEmpty() && recent.peek()[0] < now - LAG_MILLIS / 2) {
          recent.poll();
        }
        return recent.isEmpty() ? null : recent.poll();
      }
    }

    long halt() throws Exception {
      stop.set(true);
      join(10_000);
      if (failure != null) {
        throw failure;
      }
      return last.get();
    }
  }

  @Test
  void aLiveTableMigratesWhileAWriterPutsAndDeletesThroughTheCopyAndTwoSyncs() throws Exception {
    TableName source = orders("sync_live_src", 3_000);
    List<String> existing = new ArrayList<>();
    for (String cell : TestTables.cells(source)) {
      String row = cell.substring(0, cell.indexOf('/'));
      if (existing.isEmpty() || !existing.get(existing.size() - 1).equals(row)) {
        existing.add(row);
      }
    }
    Writer writer = new Writer(source, existing);
    writer.start();
    OptionValues v = values("sync_live_src", "sync_live_dst", SOURCE_KEY, SALTED, "raw", "true");
    RekeyResult copy = rekey(v);
    assertThat(copy.verify()).isNotNull();
    long first = watermark("sync_live_dst");
    assertThat(first).isEqualTo(copy.syncWatermark()).isLessThan(System.currentTimeMillis());

    Thread.sleep(1_500);
    SyncResult one = sync(v.with("write", "puts"));
    Thread.sleep(1_500);
    SyncResult two = sync(v.with("write", "hfiles"));
    long stoppedAt = writer.halt() + 1;
    assertThat(writer.made).containsExactlyInAnyOrder(Change.values());

    assertThat(one.windowFrom()).isEqualTo(first);
    assertThat(two.windowFrom()).isEqualTo(one.watermarkAfter());
    assertThat(one.totals().cellsRead()).isPositive();
    assertThat(one.totals().deletesRead()).isPositive();
    assertThat(one.windows()).extracting(SyncResult.Window::write).containsOnly("puts");
    assertThat(two.windows()).extracting(SyncResult.Window::write).containsOnly("hfiles");
    for (SyncResult r : List.of(one, two)) {
      assertThat(r.totals().addsUp()).isTrue();
      assertThat(r.totals().rowsRejected()).isZero();
    }
    assertThat(two.windows().get(0).stored().proven()).isTrue();

    // Writers stopped: wait out the safety lag, then the last window and the verify.
    Thread.sleep(Math.max(0, stoppedAt + LAG_MILLIS + 200 - System.currentTimeMillis()));
    SyncResult last =
        sync(v.with("final", "true").with("writes-stopped-at", String.valueOf(stoppedAt)));
    assertThat(last.windowTo()).isEqualTo(stoppedAt);
    assertThat(last.verify().matches()).as(text(last)).isTrue();
    assertThat(watermark("sync_live_dst")).isEqualTo(stoppedAt);

    KeyMapping mapping = KeyMapping.parse(SOURCE_KEY, SALTED);
    TableName target = TableName.valueOf("sync_live_dst");
    // Cell for cell, every version and timestamp: what reads see, and every delete marker. (A
    // raw read also returns cells that markers hide and versions past the family's limit, until a
    // flush or compaction drops them, which each table does at its own times.)
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    assertThat(markers(target, null)).isEqualTo(markers(source, mapping)).isNotEmpty();
    assertThat(verify("sync_live_src", "sync_live_dst", SOURCE_KEY, SALTED, false).matches())
        .isTrue();
    assertThat(verify("sync_live_src", "sync_live_dst", SOURCE_KEY, SALTED, true).matches())
        .isTrue();
  }

  /** The delete markers a raw read returns, mapped or not. */
  static List<String> markers(TableName table, KeyMapping mapping) throws Exception {
    List<String> out = new ArrayList<>(RekeyIT.rawCells(table, mapping));
    out.removeIf(line -> line.endsWith("/Put"));
    return out;
  }

  private static String text(SyncResult r) {
    return SyncText.sync(r);
  }

  /** Messages {@code ts_oN} whose key in the target starts with m:sender. */
  static TableName messages(String name, int versions) throws Exception {
    TableName t = TableName.valueOf(name);
    TestTables.create(
        t, ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setMaxVersions(versions).build());
    long t0 = System.currentTimeMillis() - 3_600_000;
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      puts.add(
          new Put(b((t0 + i) + "_o" + i))
              .addColumn(b("m"), b("sender"), t0 + i, b("user" + (i % 3)))
              .addColumn(b("m"), b("body"), t0 + i, b("body " + i)));
    }
    TestTables.put(t, puts);
    return t;
  }

  static String row(TableName t, int i) throws Exception {
    for (String cell : TestTables.cells(t)) {
      if (cell.contains("_o" + i + "/")) {
        return cell.substring(0, cell.indexOf('/'));
      }
    }
    throw new AssertionError("no row o" + i);
  }

  @Test
  void aRowWhoseBoundColumnChangesMovesToItsNewKeyAndLeavesNothingUnderTheOld() throws Exception {
    TableName source = messages("sync_bound_src", 3);
    OptionValues v = values("sync_bound_src", "sync_bound_dst", BOUND_SOURCE, BY_SENDER);
    rekey(v);
    String moved = row(source, 4);
    String deleted = row(source, 5);
    long now = System.currentTimeMillis();
    try (Table t = connection.getTable(source)) {
      t.put(new Put(b(moved)).addColumn(b("m"), b("sender"), now, b("zed")));
      t.delete(new Delete(b(deleted), now));
      t.put(
          new Put(b((now - 7) + "_o99"))
              .addColumn(b("m"), b("sender"), now, b("user1"))
              .addColumn(b("m"), b("body"), now, b("a new one")));
    }
    Thread.sleep(LAG_MILLIS + 300);
    SyncResult r = sync(v);
    assertThat(r.totals().rowsRead()).isEqualTo(3);
    assertThat(r.totals().rowsMoved()).isEqualTo(1);
    // The moved row: both its cells (and the old sender) under the new key, one retiring marker
    // per stored cell under the old one (the new sender too: the key may have held it, had the
    // copy's snapshot come after it).
    assertThat(r.totals().cellsMoved()).isEqualTo(3);
    assertThat(r.totals().cellsRetired()).isEqualTo(3);
    assertThat(r.totals().deletesRead()).isEqualTo(1);
    assertThat(r.totals().addsUp()).isTrue();

    TableName target = TableName.valueOf("sync_bound_dst");
    List<String> cells = TestTables.cells(target);
    assertThat(cells).anyMatch(c -> c.startsWith("zed") && c.contains("m:body/"));
    assertThat(cells)
        .noneMatch(c -> c.contains("_o4") && !c.startsWith("zed"))
        .noneMatch(c -> c.contains("body 5"))
        .anyMatch(c -> c.contains("a new one"));
    assertThat(verify("sync_bound_src", "sync_bound_dst", BOUND_SOURCE, BY_SENDER, false).matches())
        .isTrue();
  }

  /**
   * Issue 52, item 1: a live row that loses its key-bound column (or takes a value the layout
   * refuses) is a rejected row of the sync, leaves its old target key, and is counted beside every
   * verdict: the final sync says "switch" only once exactly those rows are acknowledged.
   */
  @Test
  void aRowThatCanNoLongerBeMappedIsRejectedRetiredAndBlocksTheSwitchUntilAcknowledged()
      throws Exception {
    TableName source = messages("sync_unmapped_src", 3);
    OptionValues v = values("sync_unmapped_src", "sync_unmapped_dst", BOUND_SOURCE, TEXT_BY_SENDER);
    rekey(v);
    String lost = row(source, 3);
    String refused = row(source, 6);
    long now = System.currentTimeMillis();
    try (Table t = connection.getTable(source)) {
      t.delete(new Delete(b(lost)).addColumns(b("m"), b("sender"), now));
      // A sender holding the text layout's separator could not be read back: refused.
      t.put(new Put(b(refused)).addColumn(b("m"), b("sender"), now, b("a_b")));
    }
    Thread.sleep(LAG_MILLIS + 300);
    assertThatThrownBy(() -> sync(v))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("2 rows could not be mapped, more than --max-rejects 0");

    SyncResult r = sync(v.with("max-rejects", "2"));
    assertThat(r.totals().rowsRejected()).isEqualTo(2);
    assertThat(r.totals().addsUp()).isTrue();
    // Each row's two stored Puts (three for the refused one: its new sender too) retired under
    // the key it had.
    assertThat(r.totals().cellsRetired()).isEqualTo(5);
    assertThat(r.rejectExamples()).hasSize(2);
    TableName target = TableName.valueOf("sync_unmapped_dst");
    assertThat(TestTables.cells(target))
        .noneMatch(c -> c.contains("_o3/") || c.contains("_o6/"))
        .noneMatch(c -> c.contains("body 3") || c.contains("body 6"));

    long stoppedAt = System.currentTimeMillis() - LAG_MILLIS - 100;
    OptionValues last =
        v.with("final", "true")
            .with("repair", "true")
            .with("writes-stopped-at", String.valueOf(stoppedAt));
    SyncResult unacknowledged = sync(last);
    assertThat(unacknowledged.verdict().matches()).isTrue();
    assertThat(unacknowledged.verdict().unmapped().rows()).isEqualTo(2);
    assertThat(unacknowledged.switchSafe()).isFalse();
    assertThat(text(unacknowledged))
        .contains("unmapped       2 source rows cannot be mapped (")
        .doesNotContain("can be switched");
    // Nothing of the two rows was written back or deleted again by the repair.
    assertThat(unacknowledged.repair()).isNull();

    assertThat(sync(last.with("accept-unmapped", "1")).switchSafe()).isFalse();
    SyncResult acknowledged = sync(last.with("accept-unmapped", "2"));
    assertThat(acknowledged.switchSafe()).isTrue();
    assertThat(text(acknowledged)).contains("can be switched");

    // Independently: every source row that maps is in the target cell for cell, and the two that
    // do not map are the ones the verdict counted.
    KeyMapping mapping = KeyMapping.parse(BOUND_SOURCE, TEXT_BY_SENDER);
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    assertThat(RekeyIT.unmappedRows(source, mapping)).containsExactlyInAnyOrder(lost, refused);

    // The command line: exit 4 and the one line, then 0 once acknowledged.
    String[] args = {
      "rekey",
      "sync",
      "--source",
      "sync_unmapped_src",
      "--target",
      "sync_unmapped_dst",
      "--source-key",
      BOUND_SOURCE,
      "--target-key",
      TEXT_BY_SENDER,
      "--state-table",
      STATE,
      "--safety-lag",
      String.valueOf(LAG_MILLIS / 1000),
      "--allow-short-lag",
      "--final",
      "--writes-stopped-at",
      String.valueOf(stoppedAt)
    };
    CliRun refusedRun = CliRun.of(onCluster(args));
    assertThat(refusedRun.exit()).as(refusedRun.toString()).isEqualTo(ExitCode.FINDINGS);
    assertThat(refusedRun.err())
        .contains(
            "every mapped row matches, but 2 source rows cannot be mapped", "--accept-unmapped 2");
    List<String> acknowledging = new ArrayList<>(List.of(args));
    acknowledging.addAll(List.of("--accept-unmapped", "2"));
    CliRun acknowledgedRun = CliRun.of(onCluster(acknowledging.toArray(new String[0])));
    assertThat(acknowledgedRun.exit()).as(acknowledgedRun.toString()).isEqualTo(ExitCode.OK);
  }

  /**
   * Issue 52, item 3: a writer that stamps its own, past, times and writes after the final sync's
   * last comparison is caught by the source regions' write counts, which no timestamp fools: a Put
   * stamped an hour ago, then a bulk load of a cell stamped an hour ago, each injected at that
   * exact point. The timestamp scan alone sees neither.
   */
  @Test
  void writesStampedInThePastAfterTheLastComparisonRefuseTheSwitch() throws Exception {
    TableName source = messages("sync_stamped_src", 3);
    OptionValues v = values("sync_stamped_src", "sync_stamped_dst", BOUND_SOURCE, BY_SENDER);
    rekey(v);
    long hourAgo = System.currentTimeMillis() - 3_600_000;
    long stoppedAt = System.currentTimeMillis() - LAG_MILLIS - 100;
    SyncOptions last =
        SyncOptions.from(
            v.with("final", "true")
                .with("repair", "true")
                .with("writes-stopped-at", String.valueOf(stoppedAt))
                .validate(SyncOptions.declared()));
    Runnable backfill =
        () -> {
          try (Table t = connection.getTable(source)) {
            t.put(
                new Put(b((hourAgo + 50) + "_o50"))
                    .addColumn(b("m"), b("sender"), hourAgo, b("late"))
                    .addColumn(b("m"), b("body"), hourAgo, b("backfilled")));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
    SyncResult put = finalSync(last, backfill);
    assertThat(put.switchSafe()).isFalse();
    assertThat(put.rowsWrittenAfterStop()).isZero();
    assertThat(put.sourceChanged())
        .startsWith("sync_stamped_src changed while the final sync ran: region ")
        .contains("served 1 write request.");
    assertThat(text(put)).contains("writers        NOT STOPPED").doesNotContain("can be switched");

    // Run again with nothing injected: the repair writes the backfilled row, and it may switch.
    SyncResult repaired = finalSync(last, () -> {});
    assertThat(repaired.repair()).isNotNull();
    assertThat(repaired.switchSafe()).as(text(repaired)).isTrue();
    assertThat(text(repaired)).contains("writers        stopped: no source region served a write");

    SyncResult loaded = finalSync(last, () -> bulkLoadOldCell(source, hourAgo));
    assertThat(loaded.switchSafe()).isFalse();
    assertThat(loaded.rowsWrittenAfterStop()).isZero();
    assertThat(loaded.sourceChanged()).contains("served 1 write request.");

    assertThat(finalSync(last, () -> {}).switchSafe()).isTrue();
    KeyMapping mapping = KeyMapping.parse(BOUND_SOURCE, BY_SENDER);
    assertThat(RekeyIT.actual(TableName.valueOf("sync_stamped_dst")))
        .isEqualTo(RekeyIT.expected(source, mapping))
        .anyMatch(c -> c.contains("backfilled"))
        .anyMatch(c -> c.contains("bulk loaded"));
  }

  /**
   * A source family with NEW_VERSION_BEHAVIOR: in the window a Put, a marker at its timestamp and a
   * Put at the same timestamp after it, so the source reads the second Put. The window's cells go
   * into one HFile, where they share a sequence id and the marker hides both Puts: the final sync
   * must see the difference (it compares what reads return for such a table) and refuse, and its
   * repair must make the target read as the source.
   */
  @Test
  void anOrderDependentSourceIsNeverCalledSwitchableBeforeItsRepair() throws Exception {
    TableName source = TableName.valueOf("sync_nvb_src");
    TestTables.createOrderDependent(source);
    long hourAgo = System.currentTimeMillis() - 3_600_000;
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      puts.add(
          new Put(b((hourAgo + i) + "_user" + (i % 7) + "_o" + i))
              .addColumn(b("d"), b("v"), hourAgo + i, b("v" + i)));
    }
    TestTables.put(source, puts);
    OptionValues v = values("sync_nvb_src", "sync_nvb_dst", SOURCE_KEY, SALTED);
    rekey(v);
    byte[] row = b(hourAgo + "_user0_o0");
    TestTables.putDeletePut(source, row, "v", System.currentTimeMillis());
    Thread.sleep(LAG_MILLIS + 500);
    OptionValues last =
        v.with("final", "true")
            .with(
                "writes-stopped-at", String.valueOf(System.currentTimeMillis() - LAG_MILLIS - 100));
    KeyMapping mapping = KeyMapping.parse(SOURCE_KEY, SALTED);
    List<String> expected = RekeyIT.expected(source, mapping);
    assertThat(expected).anyMatch(c -> c.endsWith("=second"));

    SyncResult unrepaired = sync(last);
    // The loss of order itself (a sync that wrote such windows in order would change this line).
    assertThat(RekeyIT.actual(TableName.valueOf("sync_nvb_dst"))).isNotEqualTo(expected);
    assertThat(unrepaired.switchSafe()).as(text(unrepaired)).isFalse();

    SyncResult repaired = sync(last.with("repair", "true"));
    assertThat(repaired.switchSafe()).as(text(repaired)).isTrue();
    assertThat(RekeyIT.actual(TableName.valueOf("sync_nvb_dst"))).isEqualTo(expected);
  }

  /**
   * Issue 52, item 2: as of a time T, on a NEW_VERSION_BEHAVIOR target (rekey makes one for a
   * column-bound key) and a source family of VERSIONS 1, a row deleted after T and a row updated
   * after T (its older value flushed away) cannot be read as of T: repair --until T leaves both
   * alone, brings no deleted row back, and a second run writes nothing; verify --until T names
   * them.
   */
  @Test
  void aRepairAsOfATimeLeavesRowsChangedSinceAloneAndBringsNoDeletedRowBack() throws Exception {
    TableName source = messages("sync_asof_src", 1);
    OptionValues v = values("sync_asof_src", "sync_asof_dst", BOUND_SOURCE, BY_SENDER);
    rekey(v);
    TableName target = TableName.valueOf("sync_asof_dst");
    long t = System.currentTimeMillis();
    Thread.sleep(5);
    String deleted = row(source, 2);
    String updated = row(source, 4);
    long now = System.currentTimeMillis();
    try (Table table = connection.getTable(source)) {
      table.delete(new Delete(b(deleted), now));
      table.put(new Put(b(updated)).addColumn(b("m"), b("body"), now, b("rewritten")));
    }
    MiniHBase.util().flush(source);
    Thread.sleep(LAG_MILLIS + 300);
    sync(v);
    assertThat(verify("sync_asof_src", "sync_asof_dst", BOUND_SOURCE, BY_SENDER, false).matches())
        .isTrue();

    RepairResult first = RepairIT.repair(v.with("until", String.valueOf(t)));
    assertThat(first.rowsChangedSince()).isEqualTo(2);
    assertThat(first.cellsWritten()).as(RepairText.repair(first)).isZero();
    assertThat(first.verify().matches()).isTrue();
    assertThat(first.verify().rowsChangedSince()).isEqualTo(2);
    assertThat(RepairText.repair(first))
        .contains("left alone     2 target rows changed at or after");
    RepairResult second = RepairIT.repair(v.with("until", String.valueOf(t)));
    assertThat(second.cellsWritten()).isZero();

    // Independently, and with every reader: the deleted row stays deleted.
    KeyMapping mapping = KeyMapping.parse(BOUND_SOURCE, BY_SENDER);
    assertThat(RekeyIT.actual(target)).isEqualTo(RekeyIT.expected(source, mapping));
    assertThat(TestTables.cells(target)).noneMatch(c -> c.contains("body 2"));
    assertThat(verify("sync_asof_src", "sync_asof_dst", BOUND_SOURCE, BY_SENDER, false).matches())
        .isTrue();
  }

  /**
   * Issue 52, item 6: a layout that is not injective (it drops ts) copies cleanly, then a sync
   * writes a new row whose key another row already has: an ordinary sync refuses before it writes
   * (as the copy does); the final sync merges the rows, verify sums both and matches, and it
   * refuses to say "switch" unless the migration allows merging.
   */
  @Test
  void rowsALayoutThatIsNotInjectiveMergesAfterTheCopyBlockTheSwitchUnlessMergingIsAllowed()
      throws Exception {
    String dropsTs = "salt(4, user) + user + order";
    TableName source = orders("sync_merge_src", 20);
    OptionValues v = values("sync_merge_src", "sync_merge_dst", SOURCE_KEY, dropsTs);
    RekeyResult copy = rekey(v);
    assertThat(copy.verify().mergedKeys()).isZero();
    String existing = row(source, 5);
    String user = existing.split("_")[1];
    long now = System.currentTimeMillis();
    try (Table t = connection.getTable(source)) {
      // A column the first row lacks: merged, the two rows' cells all fit under the one key.
      t.put(new Put(b(now + "_" + user + "_o5")).addColumn(b("m"), b("twin"), now, b("twin")));
    }
    Thread.sleep(LAG_MILLIS + 300);
    // An ordinary sync refuses as the copy does, before it writes anything.
    long watermark = watermark("sync_merge_dst");
    List<String> before = RekeyIT.actual(TableName.valueOf("sync_merge_dst"));
    assertThatThrownBy(() -> sync(v))
        .isInstanceOf(RekeyException.class)
        .hasMessageStartingWith("1 target key(s) would hold the cells of two or more source rows")
        .hasMessageContaining("nothing was written")
        .hasMessageContaining("--allow-merge");
    assertThat(watermark("sync_merge_dst")).isEqualTo(watermark);
    assertThat(RekeyIT.actual(TableName.valueOf("sync_merge_dst"))).isEqualTo(before);

    long stoppedAt = now + 1;
    OptionValues last =
        v.with("final", "true").with("repair", "true").with("writes-stopped-at", "" + stoppedAt);
    SyncResult refused = sync(last);
    assertThat(refused.verdict().matches()).as(text(refused)).isTrue();
    assertThat(refused.verdict().mergedKeys()).isEqualTo(1);
    assertThat(refused.switchSafe()).isFalse();
    assertThat(text(refused)).contains("merged         1 target keys hold the cells of two");

    assertThat(sync(last.with("allow-merge", "true")).switchSafe()).isTrue();
  }

  private static SyncResult finalSync(SyncOptions options, Runnable afterLastComparison) {
    return new SyncJob(SparkLocal.job(connection, RekeyIT.conf), options)
        .afterLastComparison(afterLastComparison)
        .execute();
  }

  /** Bulk loads one real HFile into {@code table}: one cell of a new row, stamped {@code ts}. */
  private static void bulkLoadOldCell(TableName table, long ts) {
    byte[] row = b((ts + 60) + "_o60");
    try {
      TestTables.bulkLoad(
          table,
          List.of(
              new org.apache.hadoop.hbase.KeyValue(row, b("m"), b("body"), ts, b("bulk loaded")),
              new org.apache.hadoop.hbase.KeyValue(row, b("m"), b("sender"), ts, b("bulk"))));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aRowWhoseOldKeyIsNoLongerStoredIsRejectedCountedAndBlocksTheWatermarkUnlessAllowed()
      throws Exception {
    TableName source = messages("sync_v1_src", 1);
    OptionValues v = values("sync_v1_src", "sync_v1_dst", BOUND_SOURCE, BY_SENDER);
    rekey(v);
    long before = watermark("sync_v1_dst");
    String moved = row(source, 7);
    try (Table t = connection.getTable(source)) {
      t.put(new Put(b(moved)).addColumn(b("m"), b("sender"), b("zed")));
    }
    // VERSIONS 1: once flushed and compacted, the old sender is gone from the store.
    MiniHBase.util().flush(source);
    MiniHBase.util().compact(source, true);
    Thread.sleep(LAG_MILLIS + 300);
    assertThatThrownBy(() -> sync(v))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("1 rows could not be mapped, more than --max-rejects 0")
        .hasMessageContaining("the watermark was not moved")
        // The first reject's reason, unless the limit stopped its task before it closed its
        // file (a race with the limit's poll); the run below reads it either way.
        .hasMessageMatching("(?s).*(OLD_KEY_UNKNOWN|none readable yet).*");
    assertThat(watermark("sync_v1_dst")).isEqualTo(before);

    SyncResult r = sync(v.with("max-rejects", "5"));
    assertThat(r.totals().rowsRejected()).isEqualTo(1);
    assertThat(r.totals().cellsRejected()).isEqualTo(1);
    assertThat(r.totals().addsUp()).isTrue();
    assertThat(r.rejectExamples()).singleElement().asString().contains("OLD_KEY_UNKNOWN");
    assertThat(text(r)).contains("rows rejected  1 (reasons in");
    assertThat(watermark("sync_v1_dst")).isGreaterThan(before);
  }

  @Test
  void aWindowRunAgainWritesNothingNewAndAConcurrentSyncIsRefused() throws Exception {
    orders("sync_again_src", 300);
    OptionValues v = values("sync_again_src", "sync_again_dst", SOURCE_KEY, SALTED, "raw", "true");
    rekey(v);
    long from = watermark("sync_again_dst");
    try (Table t = connection.getTable(TableName.valueOf("sync_again_src"))) {
      long now = System.currentTimeMillis();
      t.put(new Put(b(now + "_user1_x")).addColumn(b("d"), b("v"), now, b("x")));
      t.delete(new Delete(b(row(TableName.valueOf("sync_again_src"), 3)), now));
    }
    Thread.sleep(LAG_MILLIS + 300);
    SyncResult first = sync(v);
    TableName target = TableName.valueOf("sync_again_dst");
    List<String> raw = RekeyIT.rawCells(target, null);
    // The same window again, from the same watermark to the same end: the same cells.
    new RunState(connection, TableName.valueOf(STATE), target).moveWatermark(from);
    SyncResult again = sync(v.with("until", String.valueOf(first.windowTo())));
    assertThat(again.totals()).isEqualTo(first.totals());
    assertThat(RekeyIT.rawCells(target, null)).isEqualTo(raw);

    // Another run holds the target's lock: the sync is refused, the CLI exits 3.
    try (RunLock held =
        RunLock.take(connection, TableName.valueOf(STATE), target, "a test", null, false)) {
      assertThatThrownBy(() -> sync(v)).isInstanceOf(RunLockedException.class);
      CliRun cli =
          CliRun.of(
              "rekey",
              "sync",
              "--source",
              "sync_again_src",
              "--target",
              "sync_again_dst",
              "--source-key",
              SOURCE_KEY,
              "--target-key",
              SALTED,
              "--state-table",
              STATE,
              "--safety-lag",
              "2",
              "--allow-short-lag",
              "--zk",
              MiniHBase.zkQuorum());
      assertThat(cli.exit()).as(cli.toString()).isEqualTo(ExitCode.BUSY);
      assertThat(cli.err()).contains("a test");

      // 'state' shows the holder, the watermark the last sync left and the runs, newest first.
      CliRun state = state("sync_again_dst", "--json", "-");
      assertThat(state.exit()).as(state.toString()).isEqualTo(ExitCode.OK);
      JsonNode json = Json.mapper().readTree(state.out());
      assertThat(json.get("schemaVersion").asInt()).isEqualTo(1);
      assertThat(json.get("table").asText()).isEqualTo("sync_again_dst");
      assertThat(json.get("watermark").asLong()).isEqualTo(again.watermarkAfter());
      assertThat(json.get("behindSeconds").asLong()).isBetween(0L, 600L);
      assertThat(json.at("/lock/holder").asText()).startsWith("a test by pid ");
      assertThat(json.get("definition").asText()).contains(SALTED);
      JsonNode runs = json.get("runs");
      assertThat(runs).hasSizeGreaterThanOrEqualTo(2);
      assertThat(runs.get(0).get("run").asText()).isEqualTo("sync");
      assertThat(runs.get(0).get("outcome").asText()).isIn("done", "nothing to do");
      assertThat(runs.get(0).get("windowTo").asLong()).isEqualTo(first.windowTo());
      assertThat(runs.get(0).get("started").asText())
          .isGreaterThanOrEqualTo(runs.get(1).get("started").asText());
    }
    CliRun text = state("sync_again_dst", "--runs", "2");
    assertThat(text.exit()).as(text.toString()).isEqualTo(ExitCode.OK);
    assertThat(text.out())
        .contains(
            "sync_again_dst (state in " + STATE + ")",
            "lock          free",
            "behind now",
            "last 2 runs, newest first:",
            "  sync  ",
            "cellsWritten ");
    CliRun none = state("sync_no_such_dst");
    assertThat(none.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(none.err().lines().findFirst().orElseThrow())
        .startsWith(
            "error: --table is 'sync_no_such_dst' but has no state: " + STATE + " holds nothing");
  }

  /** {@code args} as a command line against the mini cluster, on the test JVM's Spark session. */
  private static String[] onCluster(String... args) {
    SparkLocal.context();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--zk", MiniHBase.zkQuorum()));
    MiniHBase.settings()
        .properties()
        .forEach((k, v) -> all.addAll(List.of("--hbase-set", k + "=" + v)));
    return all.toArray(new String[0]);
  }

  private static CliRun state(String table, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "state", "--table", table, "--state-table", STATE, "--zk", MiniHBase.zkQuorum()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void windowEndsPastTheLagAndSyncsWithoutACopyAreRefusedWithOneLine() throws Exception {
    long future = System.currentTimeMillis() + 60_000;
    assertThatThrownBy(
            () ->
                SyncOptions.from(
                    values("a", "b", SOURCE_KEY, SALTED, "until", String.valueOf(future))
                        .validate(SyncOptions.declared())))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--until")
        .hasMessageContaining("is later than now minus the safety lag");
    assertThatThrownBy(
            () ->
                SyncOptions.from(
                    values("a", "b", SOURCE_KEY, SALTED, "writes-stopped-at", "1000")
                        .validate(SyncOptions.declared())))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("only goes with --final");
    orders("sync_none_src", 10);
    TestTables.create(
        TableName.valueOf("sync_none_dst"),
        ColumnFamilyDescriptorBuilder.of("d"),
        ColumnFamilyDescriptorBuilder.of("m"));
    assertThatThrownBy(() -> sync(values("sync_none_src", "sync_none_dst", SOURCE_KEY, SALTED)))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("there is no sync watermark for sync_none_dst")
        .hasMessageContaining("Run 'rekey' with the same options first");
    // The history keeps the failed run.
    List<String> history =
        new RunState(connection, TableName.valueOf(STATE), TableName.valueOf("sync_none_dst"))
            .history(5);
    assertThat(history).singleElement().asString().contains("\"outcome\":\"failed\"");
  }
}
