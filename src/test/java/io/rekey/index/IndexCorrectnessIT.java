package io.rekey.index;

import static io.rekey.index.IndexIT.T0;
import static io.rekey.index.IndexIT.b;
import static io.rekey.index.IndexIT.bySender;
import static io.rekey.index.IndexIT.connection;
import static io.rekey.index.IndexIT.definition;
import static io.rekey.index.IndexIT.hitKeys;
import static io.rekey.index.IndexIT.lookup;
import static io.rekey.index.IndexIT.message;
import static io.rekey.index.IndexIT.messages;
import static io.rekey.index.IndexIT.parsed;
import static io.rekey.index.IndexIT.runBuild;
import static io.rekey.index.IndexIT.runUpdate;
import static io.rekey.index.IndexIT.scrutiny;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.OptionValues;
import io.rekey.run.RunLock;
import io.rekey.run.RunState;
import io.rekey.testing.ChildJvm;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What keeps an index right beyond the happy path: the watermark never passes what was read (a
 * safety lag), covered values stay fresh, scrutiny sees stale and foreign rows and repair touches
 * only its own, every source row is counted, and a dead run's lock and snapshot do not stay.
 */
@LongTier
@ExtendWith(MiniHBase.class)
class IndexCorrectnessIT {
  private static final TableName STATE = TableName.valueOf("rekey_index_state");

  @BeforeAll
  static void connect() {
    IndexIT.connect();
  }

  @AfterAll
  static void close() throws Exception {
    IndexIT.close();
  }

  /** The covered subject the index entry of message {@code i} (sender, T0 + i s) holds. */
  private static String subjectInEntry(OptionValues def, String index, int i, String sender)
      throws Exception {
    IndexDefinition d = parsed(def);
    byte[] key = d.key().entryKey(b(String.format("msg%05d", i)), null, b(sender), T0 + i * 1000L);
    try (Table ix = connection.getTable(TableName.valueOf(index))) {
      byte[] v =
          ix.get(new org.apache.hadoop.hbase.client.Get(key)).getValue(b("i"), b("m:subject"));
      return v == null ? null : Bytes.toString(v);
    }
  }

  private static RunState state(String index) {
    return new RunState(connection, STATE, TableName.valueOf(index));
  }

  @Test
  void aCoveredChangeAloneRewritesTheEntryAndWritesInsideTheLagReachTheNextUpdate()
      throws Exception {
    TableName source = messages("ixc_covered", 50);
    String index = bySender(source);
    OptionValues def = OptionValues.empty().with("safety-lag", "3").over(definition(source, index));
    IndexRunResult built = runBuild(def);
    long watermark = built.watermarkAfter();
    assertThat(subjectInEntry(def, index, 1, "bob")).isEqualTo("subject 1");
    assertThat(built.windowTo()).isLessThanOrEqualTo(System.currentTimeMillis() - 3000);

    // msg00001 (bob): only its subject changes, stamped inside the next window.
    TestTables.put(
        source,
        List.of(
            new Put(b("msg00001"))
                .addColumn(b("m"), b("subject"), watermark + 1, b("a new subject"))));
    // A message stamped a second ago: inside the lag, so the next update must leave it...
    long recent = System.currentTimeMillis() - 1000;
    TestTables.put(
        source,
        List.of(new Put(b("msg00100")).addColumn(b("m"), b("sender"), recent, b("latecomer"))));

    IndexRunResult first = runUpdate(def);
    assertThat(first.windowTo()).isLessThanOrEqualTo(recent);
    assertThat(subjectInEntry(def, index, 1, "bob")).isEqualTo("a new subject");
    assertThat(hitKeys(lookup(def).lookup("latecomer", null, null, 10, false))).isEmpty();

    // ...and the one after the lag has passed must pick it up.
    while (System.currentTimeMillis() <= recent + 3000) {
      Thread.sleep(50);
    }
    IndexRunResult second = runUpdate(def);
    assertThat(second.windowFrom()).isEqualTo(first.windowTo());
    assertThat(hitKeys(lookup(def).lookup("latecomer", null, null, 10, false)))
        .containsExactly("msg00100");
    assertThat(scrutiny(def, false).clean()).isTrue();
  }

  /**
   * A schedule that moves between hosts: the last run's host had its clock an hour ahead, so its
   * entry cells are stamped in the future. The next run, on a host with the right time, still
   * writes newer cells (the state table keeps the runs' times increasing).
   */
  @Test
  void aRunAfterOneWhoseClockWasAheadStillWritesNewerCells() throws Exception {
    TableName source = messages("ixc_clock", 20);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    long watermark = runBuild(def).watermarkAfter();
    IndexDefinition d = parsed(def);
    long ahead = System.currentTimeMillis() + 3_600_000;
    try (Table ix = connection.getTable(TableName.valueOf(index));
        Table st = connection.getTable(STATE)) {
      ix.put(
          new Put(d.key().entryKey(b("msg00001"), null, b("bob"), T0 + 1000))
              .addColumn(b("i"), b("m:subject"), ahead, b("written an hour ahead")));
      st.put(new Put(b(index)).addColumn(RunLock.FAMILY, b("stamp"), Bytes.toBytes(ahead)));
    }
    TestTables.put(
        source,
        List.of(
            new Put(b("msg00001"))
                .addColumn(b("m"), b("subject"), watermark + 1, b("the newest subject"))));
    while (System.currentTimeMillis() <= watermark + 1) {
      Thread.sleep(5);
    }
    runUpdate(def);
    assertThat(subjectInEntry(def, index, 1, "bob")).isEqualTo("the newest subject");
  }

  @Test
  void scrutinyFindsStaleCoveredValuesAndForeignRowsAndRepairTouchesOnlyItsOwn() throws Exception {
    TableName source = messages("ixc_stale", 60);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    runBuild(def);
    IndexDefinition d = parsed(def);
    byte[] stale = d.key().entryKey(b("msg00002"), null, b("carol"), T0 + 2000);
    // Another layout's row (with a marker) and an entry-shaped row without the marker.
    byte[] otherLayout = b("other-layout-row");
    byte[] noMarker = d.key().entryKey(b("ghost"), null, b("alice"), T0);
    try (Table ix = connection.getTable(TableName.valueOf(index))) {
      ix.put(new Put(stale).addColumn(b("i"), b("m:subject"), b("a wrong subject")));
      ix.put(new Put(otherLayout).addColumn(b("i"), b("_"), new byte[0]));
      ix.put(new Put(noMarker).addColumn(b("i"), b("note"), b("kept by someone else")));
    }
    assertThat(subjectInEntry(def, index, 2, "carol")).isEqualTo("a wrong subject");
    IndexScrutinyResult found = scrutiny(def, false);
    assertThat(found.stale()).as(found.toString()).isEqualTo(1);
    assertThat(found.foreign()).isEqualTo(2);
    assertThat(found.orphan()).isZero();
    assertThat(found.clean()).isFalse();
    assertThat(found.samples().get("stale").get(0))
        .contains("msg00002", "'a wrong subject'", "'subject 2'");
    assertThat(found.samples().get("foreign")).hasSize(2);

    IndexScrutinyResult repaired = scrutiny(def, true);
    assertThat(repaired.written()).isEqualTo(1);
    assertThat(repaired.deleted()).isZero();
    IndexScrutinyResult after = scrutiny(def, false);
    assertThat(after.clean()).as(after.toString()).isTrue();
    assertThat(after.foreign()).isEqualTo(2);
    try (Table ix = connection.getTable(TableName.valueOf(index))) {
      assertThat(ix.exists(new org.apache.hadoop.hbase.client.Get(otherLayout))).isTrue();
      assertThat(ix.exists(new org.apache.hadoop.hbase.client.Get(noMarker))).isTrue();
    }
    assertThat(subjectInEntry(def, index, 2, "carol")).isEqualTo("subject 2");
    assertThat(state(index).history(1).get(0))
        .contains("\"run\":\"scrutiny\"", "\"outcome\":\"done\"");
    assertThat(state(index).history(2).get(1))
        .contains("\"run\":\"scrutiny --repair\"", "\"entriesWritten\":1", "\"entriesDeleted\":0");
  }

  @Test
  void anEntryRepairDeletedComesBackWhenItsRowIsRestoredWithItsOldTimestamps() throws Exception {
    TableName source = messages("ixc_restore", 30);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    runBuild(def);
    // msg00007 (carol) is deleted; repair deletes its entry (an orphan).
    try (Table src = connection.getTable(source)) {
      src.delete(new Delete(b("msg00007")));
    }
    IndexScrutinyResult repaired = scrutiny(def, true);
    assertThat(repaired.deleted()).isEqualTo(1);
    assertThat(hitKeys(lookup(def).lookup("carol", null, null, 100, false)))
        .doesNotContain("msg00007");

    // The source's own delete marker would hide the old timestamps: compacted away first.
    MiniHBase.util().flush(source);
    MiniHBase.util().compact(source, true);
    // Restored as it was, old timestamps and all, and the index built again.
    TestTables.put(source, List.of(message(7, T0 + 7000)));
    runBuild(def);
    assertThat(hitKeys(lookup(def).lookup("carol", null, null, 100, false))).contains("msg00007");
    assertThat(scrutiny(def, false).clean()).isTrue();
  }

  @Test
  void anIndexOnAColumnNoRowHasStopsNamingTheColumnsSeenAndLeavesNothing() throws Exception {
    TableName source = messages("ixc_absent", 30);
    String index = source.getNameAsString() + "_by_nothing";
    OptionValues def =
        OptionValues.empty().with("column", "m:nosuchcolumn").over(definition(source, index));
    assertThatThrownBy(() -> runBuild(def))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("no row of " + source + " holds m:nosuchcolumn (30 rows read)")
        .hasMessageContaining("nothing was loaded")
        .hasMessageContaining("Columns seen in the table: m:body, m:sender, m:subject")
        .hasMessageContaining("dropped the empty index table");
    assertThat(new TableAdmin(connection).exists(TableName.valueOf(index))).isFalse();
    assertThat(state(index).watermark()).isEmpty();
    assertThat(state(index).history(1).get(0))
        .contains("\"run\":\"build\"", "\"outcome\":\"failed\"", "m:nosuchcolumn");
  }

  @Test
  void everyRowWithoutTheValueIsCountedEvenWhenItHoldsNoneOfTheIndexsColumns() throws Exception {
    TableName source = MiniHBase.uniqueTable("ixc_missing");
    // A family sorting before the index's: every row's first cell is in it.
    TestTables.create(
        source, ColumnFamilyDescriptorBuilder.of("a"), ColumnFamilyDescriptorBuilder.of("m"));
    List<Put> rows = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Put p = new Put(b(String.format("row%02d", i)));
      p.addColumn(b("a"), b("note"), T0, b("a long note that the read need not carry"));
      if (i % 2 == 0) {
        p.addColumn(b("m"), b("sender"), T0, b("alice"))
            .addColumn(b("m"), b("subject"), T0, b("subject " + i));
      } else {
        // Neither the indexed nor the covered column: a read of those columns alone skips it.
        p.addColumn(b("m"), b("body"), T0, b("only a body"));
      }
      rows.add(p);
    }
    TestTables.put(source, rows);
    String index = bySender(source);
    IndexRunResult r =
        runBuild(
            definition(source, index).with("missing-value", "reject").with("max-rejects", "10"));
    assertThat(r.counts().rowsRead()).isEqualTo(10);
    assertThat(r.counts().rowsIndexed()).isEqualTo(5);
    assertThat(r.counts().rowsRejected()).isEqualTo(5);
    assertThat(r.rejectExamples()).hasSize(5);
    // The indexed rows' entries hold their values, whatever the first cell of the row was.
    IndexDefinition d = parsed(definition(source, index));
    try (Table ix = connection.getTable(TableName.valueOf(index))) {
      for (int i = 0; i < 10; i += 2) {
        byte[] key = d.key().entryKey(b(String.format("row%02d", i)), null, b("alice"), T0);
        byte[] subject =
            ix.get(new org.apache.hadoop.hbase.client.Get(key)).getValue(b("i"), b("m:subject"));
        assertThat(subject == null ? null : Bytes.toString(subject)).isEqualTo("subject " + i);
      }
    }
    assertThat(scrutiny(definition(source, index), false).sourceRows()).isEqualTo(10);
  }

  /**
   * A build killed with SIGKILL (a child JVM) while it reads its snapshot leaves its lock and the
   * snapshot; the next run takes the lock over (its holder is provably dead) and deletes them.
   */
  @Test
  void aBuildKilledWhileReadingLeavesALockAndASnapshotTheNextRunClearsUp(@TempDir Path dir)
      throws Exception {
    TableName source = messages("ixc_killed", 20_000);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    List<String> args =
        new ArrayList<>(
            List.of(
                "index",
                "build",
                "--source",
                source.getNameAsString(),
                "--column",
                "m:sender",
                "--covered",
                "m:subject",
                "--index-table",
                index,
                "--zk",
                MiniHBase.zkQuorum()));
    MiniHBase.settings()
        .properties()
        .forEach((k, v) -> args.addAll(List.of("--hbase-set", k + "=" + v)));
    state(index).ensureTable();
    Process build = ChildJvm.localCli(args, dir.resolve("build.log"));
    String note = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (note == null && build.isAlive() && System.nanoTime() < deadline) {
      note = readNote(index);
      Thread.sleep(10);
    }
    assertThat(note)
        .as("the build reached its read: %s", Files.readString(dir.resolve("build.log")))
        .isNotNull();
    build.destroyForcibly().waitFor();
    assertThat(build.exitValue()).isEqualTo(137);
    String snapshot = note.split(" ")[0];
    org.apache.hadoop.fs.Path restore = new org.apache.hadoop.fs.Path(note.split(" ", 2)[1]);
    assertThat(new TableAdmin(connection).snapshotExists(snapshot)).isTrue();

    IndexRunResult r = runBuild(def);
    assertThat(r.counts().rowsRead()).isEqualTo(20_000);
    assertThat(new TableAdmin(connection).snapshotExists(snapshot)).isFalse();
    assertThat(restore.getFileSystem(IndexIT.conf).exists(restore)).isFalse();
    assertThat(readNote(index)).isNull();
    assertThat(scrutiny(def, false).clean()).isTrue();
  }

  /** The snapshot a run of the index notes while it reads, or null. */
  private static String readNote(String index) throws Exception {
    try (Table t = connection.getTable(STATE)) {
      byte[] v =
          t.get(new org.apache.hadoop.hbase.client.Get(b(index)))
              .getValue(RunLock.FAMILY, b("read"));
      return v == null ? null : new String(v, java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
