package io.rekey.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.cli.ExitCode;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.run.RunState;
import io.rekey.stream.endpoint.StreamSettings;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code stream switch} on a real mini cluster: once the writers stop it says "switch" only when
 * the target already holds every edit (compared at that moment with an independent read, not after
 * a wait), and it refuses in one line while the stream cannot have drained: the target away, a
 * writer still writing, the peer disabled, no comparison recorded.
 */
@ExtendWith(MiniHBase.class)
class StreamSwitchIT {
  private static final String STATE = "sw_state";
  private static final TableName SOURCE = TableName.valueOf("sw_src");
  private static final TableName TARGET = TableName.valueOf("sw_dst");

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  /** A command on the mini cluster, its root directory given so that snapshot reads work. */
  private static CliRun cli(String... args) {
    SparkLocal.context(); // the CLI picks up the test JVM's local Spark session
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--zk", MiniHBase.zkQuorum()));
    MiniHBase.settings()
        .properties()
        .forEach((k, v) -> all.addAll(List.of("--hbase-set", k + "=" + v)));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** {@code stream start} with its copy, in the stream ITs' layouts and state table. */
  private static CliRun startWithCopy(String source, String target, String... more) {
    List<String> args =
        StreamIT.migration(
            List.of("stream", "start"), source, target, StreamIT.SOURCE_KEY, StreamIT.TARGET_KEY);
    args.addAll(List.of("--state-table", STATE));
    args.addAll(List.of(more));
    return cli(args.toArray(String[]::new));
  }

  private static CliRun switchNow(String... more) {
    return switchInto("sw_dst", more);
  }

  private static CliRun switchInto(String target, String... more) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "stream", "switch", "--target", target, "--state-table", STATE, "--settle", "0.5"));
    all.addAll(List.of(more));
    return cli(all.toArray(String[]::new));
  }

  /** A live verify of the migration, which records the match the switch asks for. */
  private static void verifyLive(String source, String target) {
    List<String> args =
        StreamIT.migration(
            List.of("verify"), source, target, StreamIT.SOURCE_KEY, StreamIT.TARGET_KEY);
    args.addAll(List.of("--live-scan", "--state-table", STATE));
    CliRun verified = cli(args.toArray(String[]::new));
    assertThat(verified.exit()).as(verified.toString()).isEqualTo(ExitCode.OK);
  }

  private static List<Put> writes(int from, int n, String what) {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      Put p = new Put(b(StreamIT.T0 + i + "_user" + i % 5 + "_o" + i));
      p.addColumn(b("m"), b("body"), StreamIT.T0 + i, b(what + " " + i));
      // Stamped years ago: only the log, not a timestamp window, sees it.
      p.addColumn(b("m"), b("imported"), StreamIT.LONG_AGO + i, b("archived " + i));
      puts.add(p);
    }
    return puts;
  }

  @Test
  void theSwitchSaysSwitchOnlyWhenTheTargetAlreadyHoldsEveryEditAndRefusesOtherwise()
      throws Exception {
    StreamIT.table("sw_src");
    StreamIT.table("sw_dst");
    KeyMapping mapping =
        new StreamSettings(SOURCE, TARGET, StreamIT.SOURCE_KEY, StreamIT.TARGET_KEY, Map.of())
            .mapping();
    new RunState(MiniHBase.util().getConnection(), TableName.valueOf(STATE), TARGET).ensureTable();
    CliRun started =
        StreamIT.startCli("sw_src", "sw_dst", StreamIT.SOURCE_KEY, StreamIT.TARGET_KEY);
    assertThat(started.exit()).as(started.err()).isEqualTo(ExitCode.OK);
    TestTables.put(SOURCE, writes(0, 50, "first"));

    // No comparison recorded yet: refused before any fence.
    CliRun unproven = switchNow();
    assertThat(unproven.exit()).isEqualTo(ExitCode.FINDINGS);
    assertThat(unproven.out()).contains("do not switch: no full comparison of sw_dst");

    StreamIT.awaitMapped(SOURCE, TARGET, mapping);
    verifyLive("sw_src", "sw_dst");

    // The target is away: the stream cannot ship, so no fence is acknowledged and the switch must
    // refuse while the tables differ.
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      admin.disableTable(TARGET);
      TestTables.put(SOURCE, writes(50, 30, "while the target was away"));
      CliRun away = switchNow("--drain-timeout", "3");
      assertThat(away.exit()).as(away.toString()).isEqualTo(ExitCode.FINDINGS);
      assertThat(away.out()).contains("did not ship up to the fence on");
      // (Written after the target went away, those rows cannot be in it: the refusal was due.)
      admin.enableTable(TARGET);

      // The peer disabled: refused before any fence.
      admin.disableReplicationPeer("rekey_sw_dst");
      CliRun disabled = switchNow();
      assertThat(disabled.exit()).isEqualTo(ExitCode.FINDINGS);
      assertThat(disabled.out()).contains("rekey_sw_dst is disabled");
      admin.enableReplicationPeer("rekey_sw_dst");
    }

    // A row the layout cannot read: recorded by the endpoint, shown by status, and the switch
    // refuses until the operator acknowledges exactly it.
    TestTables.put(
        SOURCE,
        List.of(new Put(b("not-a-time_key")).addColumn(b("m"), b("body"), b("unplaceable"))));
    String status = "";
    for (int i = 0; i < 100 && !status.contains("\"refusedRows\" : 1"); i++) {
      Thread.sleep(200);
      status = cli("stream", "status", "--target", "sw_dst", "--json", "-").out();
    }
    assertThat(status).contains("\"refusedRows\" : 1").contains("not-a-time_key: ");
    CliRun unplaced = switchNow();
    assertThat(unplaced.exit()).isEqualTo(ExitCode.FINDINGS);
    assertThat(unplaced.out())
        .contains(
            "the stream could not place 1 source row(s) under the layout (first: not-a-time_key");

    // A backfill that a delete marker hides in the target only: the source major-compacted the
    // marker away before the backfill came, the target still holds the copy the stream wrote. The
    // endpoint reads the backfill back from both tables and records it; the switch refuses until
    // the target is compacted and the cell written again, as the refusal says.
    byte[] hiddenRow = b(StreamIT.T0 + 7 + "_user2_o7");
    try (var t = MiniHBase.util().getConnection().getTable(SOURCE)) {
      t.delete(new Delete(hiddenRow, StreamIT.T0 + 7));
      StreamIT.awaitMapped(SOURCE, TARGET, mapping);
      MiniHBase.util().flush(SOURCE);
      MiniHBase.util().compact(SOURCE, true);
      Put backfill =
          new Put(hiddenRow).addColumn(b("m"), b("body"), StreamIT.T0 + 6, b("backfill"));
      t.put(backfill);
      CliRun hidden = switchNow("--accept-unmapped", "1");
      assertThat(hidden.exit()).as(hidden.toString()).isEqualTo(ExitCode.FINDINGS);
      assertThat(hidden.out())
          .contains("1 cell(s) stamped in the past read differently from the source and the target")
          .contains(
              Bytes.toStringBinary(hiddenRow)
                  + "/m:body@"
                  + (StreamIT.T0 + 6)
                  + " is read from the source but hidden in the target");
      // (The refusal was due: the target hides what the source shows.)
      assertThat(StreamIT.actual(TARGET)).isNotEqualTo(StreamIT.expected(SOURCE, mapping));
      MiniHBase.util().flush(TARGET);
      MiniHBase.util().compact(TARGET, true);
      t.put(backfill);
      StreamIT.awaitMapped(SOURCE, TARGET, mapping);
    }

    // A writer that has not stopped: refused, whatever timestamps it writes.
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger next = new AtomicInteger(1000);
    Thread writer =
        new Thread(
            () -> {
              while (writing.get()) {
                try {
                  TestTables.put(SOURCE, writes(next.getAndAdd(1), 1, "not stopped"));
                  Thread.sleep(20);
                } catch (Exception e) {
                  return;
                }
              }
            });
    writer.start();
    CliRun notStopped = switchNow();
    writing.set(false);
    writer.join();
    assertThat(notStopped.exit()).as(notStopped.toString()).isEqualTo(ExitCode.FINDINGS);
    assertThat(notStopped.out()).contains("writers have not stopped");

    // The writers stop after a last burst of every kind of write while the target is briefly
    // away, so the stream lags behind the stop; the switch runs at once and has to wait for it.
    Admin admin = MiniHBase.util().getConnection().getAdmin();
    admin.disableTable(TARGET);
    TestTables.put(SOURCE, writes(2000, 200, "last"));
    try (var t = MiniHBase.util().getConnection().getTable(SOURCE)) {
      t.delete(new Delete(b(StreamIT.T0 + 3 + "_user3_o3")));
      t.delete(
          new Delete(b(StreamIT.T0 + 4 + "_user4_o4"))
              .addColumns(b("m"), b("imported"), StreamIT.LONG_AGO + 10));
      t.delete(
          new Delete(b(StreamIT.T0 + 5 + "_user0_o5"))
              .addColumn(b("m"), b("body"), StreamIT.T0 + 5));
    }
    Thread back =
        new Thread(
            () -> {
              try {
                Thread.sleep(3_000);
                admin.enableTable(TARGET);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    back.start();
    CliRun switched = switchNow("--accept-unmapped", "1");
    // Read at once: the verdict must already be true, not become true later.
    List<String> target = StreamIT.actual(TARGET);
    List<String> source = StreamIT.expected(SOURCE, mapping);
    back.join();
    admin.close();
    assertThat(switched.exit()).as(switched.toString()).isEqualTo(ExitCode.OK);
    assertThat(switched.out()).contains("switch: point readers and writers at sw_dst now");
    assertThat(target).isEqualTo(source);
    assertThat(source).hasSizeGreaterThan(2 * 280);

    // The history holds the verify line the switch relied on.
    assertThat(
            new RunState(MiniHBase.util().getConnection(), TableName.valueOf(STATE), TARGET)
                .history(20))
        .anySatisfy(line -> assertThat(line).contains("\"run\":\"verify\"").contains("\"match\""));
    theStreamTurnsAroundAndARollbackIsOneMoreSwitch(mapping);
  }

  /**
   * After the switch {@code stream stop --reverse} carries the migrated table's edits back into the
   * table migrated from, through the mapping run backwards, so that a rollback is one more switch;
   * a layout that cannot run backwards is refused in one line and the stream keeps running.
   */
  private static void theStreamTurnsAroundAndARollbackIsOneMoreSwitch(KeyMapping mapping)
      throws Exception {
    CliRun reversed = cli("stream", "stop", "--target", "sw_dst", "--reverse");
    assertThat(reversed.exit()).as(reversed.toString()).isEqualTo(ExitCode.OK);
    assertThat(reversed.out())
        .contains("removed the replication peer rekey_sw_dst")
        .contains("started rekey_sw_src")
        .contains(
            "stream stop --reverse: sw_dst -> sw_src (replication peer rekey_sw_src, enabled,"
                + " reverse");

    // The applications write the new table now: new rows, rows stamped years ago, each kind of
    // delete, and one row under a key the mapping never writes.
    List<Put> puts = new ArrayList<>();
    for (Put p : writes(5000, 40, "after the switch")) {
      Put moved = new Put(mapping.map(p.getRow(), ColumnValues.NONE));
      p.getFamilyCellMap().values().forEach(cells -> cells.forEach(c -> add(moved, c)));
      puts.add(moved);
    }
    puts.add(new Put(b("no key of the layout")).addColumn(b("m"), b("body"), b("x")));
    TestTables.put(TARGET, puts);
    try (var t = MiniHBase.util().getConnection().getTable(TARGET)) {
      t.delete(new Delete(newKey(mapping, 6)));
      t.delete(
          new Delete(newKey(mapping, 7)).addColumns(b("m"), b("imported"), StreamIT.LONG_AGO + 7));
      t.delete(new Delete(newKey(mapping, 5001)).addColumn(b("m"), b("body"), StreamIT.T0 + 5001));
    }
    CliRun unplaced = switchBack();
    assertThat(unplaced.exit()).as(unplaced.toString()).isEqualTo(ExitCode.FINDINGS);
    assertThat(unplaced.out())
        .contains("could not place 1 source row(s)")
        .contains("no key of the layout");

    try (var t = MiniHBase.util().getConnection().getTable(TARGET)) {
      t.delete(new Delete(b("no key of the layout")));
    }
    CliRun rolledBack = switchBack("--accept-unmapped", "1");
    List<String> old = StreamIT.expected(SOURCE, mapping);
    List<String> migrated = StreamIT.actual(TARGET);
    assertThat(rolledBack.exit()).as(rolledBack.toString()).isEqualTo(ExitCode.OK);
    assertThat(rolledBack.out()).contains("switch: point readers and writers at sw_src now");
    assertThat(old)
        .isEqualTo(migrated)
        .anySatisfy(c -> assertThat(c).contains("after the switch 5039"));
    assertThat(cli("stream", "stop", "--target", "sw_src").exit()).isEqualTo(ExitCode.OK);

    // A layout whose new key keeps only a hash of a field cannot run backwards: refused in one
    // line before anything changes.
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      StreamPeer.start(
          admin,
          admin,
          "rekey_lossy",
          new StreamSettings(
              SOURCE,
              TARGET,
              StreamIT.SOURCE_KEY,
              "hash(user, bytes=4) + reverse_ts(ts) + order",
              Map.of()));
      CliRun lossy =
          cli("stream", "stop", "--target", "sw_dst", "--peer-id", "rekey_lossy", "--reverse");
      assertThat(lossy.exit()).as(lossy.toString()).isEqualTo(ExitCode.FAILED);
      assertThat(lossy.err().strip())
          .doesNotContain("\n")
          .contains("the stream rekey_lossy cannot run the other way")
          .contains("does not keep user");
      assertThat(StreamPeer.status(admin, "rekey_lossy")).isNotNull();
      assertThat(StreamPeer.status(admin, "rekey_sw_src")).isNull();
      assertThat(StreamPeer.stop(admin, "rekey_lossy")).isTrue();
    }
  }

  private static byte[] newKey(KeyMapping mapping, int i) throws Exception {
    return mapping.map(b(StreamIT.T0 + i + "_user" + i % 5 + "_o" + i), ColumnValues.NONE);
  }

  private static void add(Put p, org.apache.hadoop.hbase.Cell c) {
    p.addColumn(
        org.apache.hadoop.hbase.CellUtil.cloneFamily(c),
        org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
        c.getTimestamp(),
        org.apache.hadoop.hbase.CellUtil.cloneValue(c));
  }

  private static CliRun switchBack(String... more) {
    return switchInto("sw_src", more);
  }

  /**
   * A source with NEW_VERSION_BEHAVIOR, where a delete hides only what was written before it: a
   * writer puts, deletes and puts again at one timestamp, and writes a cell under a column delete
   * after it, all through the copy, a split and a move of the source's region. Sent together, the
   * three writes at one timestamp would share one MVCC number in the target and read as deleted;
   * the serial stream writes each row's edits in their order, and the target reads as the source.
   */
  @Test
  void anOrderDependentTableStreamsEachRowsEditsInTheirOrderThroughTheCopyASplitAndAMove()
      throws Exception {
    TableName source = StreamIT.orderedTable("so_src");
    TableName target = TableName.valueOf("so_dst");
    TestTables.put(source, writes(0, 300, "before the copy"));
    KeyMapping mapping =
        new StreamSettings(source, target, StreamIT.SOURCE_KEY, StreamIT.TARGET_KEY, Map.of())
            .mapping();
    // A raw copy would lose the order (RekeyIT): refused before the peer is added.
    CliRun raw = startWithCopy("so_src", "so_dst", "--raw");
    assertThat(raw.exit()).as(raw.toString()).isNotEqualTo(ExitCode.OK);
    assertThat(raw.err()).contains("--raw is 'true' but the family m of so_src keeps");
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      assertThat(admin.listReplicationPeers()).noneMatch(p -> p.getPeerId().equals("rekey_so_dst"));
      assertThat(admin.tableExists(target)).isFalse();
    }
    Writer writer = new Writer(source, StreamSwitchIT::putDeletePutAndWriteUnderADelete);
    CliRun started = startWithCopy("so_src", "so_dst");
    assertThat(started.exit()).as(started.toString()).isEqualTo(ExitCode.OK);
    assertThat(started.out()).contains("serial: each row's edits in their order");
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      assertThat(admin.getReplicationPeerConfig("rekey_so_dst").isSerial()).isTrue();
      admin.split(source, b(String.valueOf(StreamIT.T0 + 150)));
      MiniHBase.util().waitFor(60_000, () -> admin.getRegions(source).size() == 2);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      Thread.sleep(500);
      for (var region : admin.getRegions(source)) {
        admin.move(region.getEncodedNameAsBytes()); // closed and opened again: a new barrier
      }
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      Thread.sleep(500);
    }
    int steps = writer.stop();
    assertThat(steps).isGreaterThan(30);

    List<String> expected = StreamIT.awaitMapped(source, target, mapping);
    // The source reads the order: the second write at each timestamp, and the cell written under
    // an older column delete.
    assertThat(expected.stream().filter(l -> l.contains("=second ")).count()).isEqualTo(steps);
    assertThat(expected.stream().filter(l -> l.contains("=after its delete ")).count())
        .isEqualTo(steps);
    assertThat(StreamIT.actual(target)).isEqualTo(expected);
    verifyLive("so_src", "so_dst");
    CliRun switched =
        cli("stream", "switch", "--target", "so_dst", "--state-table", STATE, "--settle", "0.5");
    assertThat(switched.exit()).as(switched.toString()).isEqualTo(ExitCode.OK);
    assertThat(StreamIT.actual(target)).isEqualTo(StreamIT.expected(source, mapping));
    assertThat(cli("stream", "stop", "--target", "so_dst").exit()).isEqualTo(ExitCode.OK);
  }

  /**
   * A key bound to a column ({@code m:sender}): an edit that leaves the column alone lands where
   * its row lives now; a row whose sender changes (during the copy, after it, stamped in the past)
   * is written whole under its new key and retired under the old one, and moves back; a row whose
   * sender is deleted is retired and refused; a deleted row is deleted where it lived; all through
   * a split and a move of the source's region. The target then reads as the source mapped by each
   * row's sender now, and the switch says so.
   */
  @Test
  void aKeyBoundToAColumnFollowsEachRowAsItMovesAndMovesBackThroughTheCopyASplitAndAMove()
      throws Exception {
    TableName source = StreamIT.scopedTable("sb_src");
    TableName target = TableName.valueOf("sb_dst");
    String sourceKey = StreamIT.BOUND_SOURCE_KEY;
    String targetKey = StreamIT.BOUND_TARGET_KEY;
    KeyMapping mapping = KeyMapping.parse(sourceKey, targetKey);
    List<Put> rows = writes(0, 200, "before the copy");
    for (int i = 0; i < rows.size(); i++) {
      rows.get(i).addColumn(b("m"), b("sender"), StreamIT.T0, b("s" + i % 3));
    }
    TestTables.put(source, rows);
    // Rows 100 to 199 move all through the copy and the stream.
    Writer writer =
        new Writer(
            source,
            (t, k) ->
                t.put(sender(100 + k % 100, "w" + k % 7).addColumn(b("m"), b("n"), b("" + k))));
    // An index of the target by sender, kept by the stream from its build after the copy on; the
    // switch moves its watermark, so the scrutiny below counts a wrong entry as a difference.
    java.nio.file.Path index = java.nio.file.Files.createTempFile("sb_ix", ".properties");
    java.nio.file.Files.writeString(
        index,
        String.join(
            "\n",
            "source = sb_dst",
            "column = m:sender",
            "covered = m:sender ; m:body",
            "index-table = sb_ix",
            "regions = 2",
            // A sender this long makes an entry key longer than that: the row is refused.
            "max-key-length = 64",
            "state-table = " + STATE,
            "safety-lag = 0",
            "allow-short-lag = true"));
    List<String> args =
        StreamIT.migration(List.of("stream", "start"), "sb_src", "sb_dst", sourceKey, targetKey);
    args.addAll(List.of("--state-table", STATE, "--index", index.toString()));
    CliRun started = cli(args.toArray(String[]::new));
    assertThat(started.exit()).as(started.toString()).isEqualTo(ExitCode.OK);
    assertThat(started.out())
        .contains("serial: each row's edits in their order")
        .contains("keeps index    sb_ix (by m:sender)");
    try (var t = MiniHBase.util().getConnection().getTable(source);
        Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      for (int i = 0; i < 20; i++) {
        t.put(sender(i, "moved")); // a move
      }
      admin.split(source, b(String.valueOf(StreamIT.T0 + 50)));
      for (int i = 0; i < 10; i++) {
        t.put(sender(i, "s" + i % 3)); // and back
      }
      for (int i = 20; i < 25; i++) {
        t.put(new Put(row(i)).addColumn(b("m"), b("body"), b("edited " + i))); // stays
      }
      t.delete(new Delete(row(25)).addColumns(b("m"), b("sender"))); // cannot be placed
      t.delete(new Delete(row(26))); // gone
      // Stamped in the past, yet newer than the sender it replaces: a sync by time misses it.
      t.put(new Put(row(27)).addColumn(b("m"), b("sender"), StreamIT.T0 + 5, b("backdated")));
      MiniHBase.util().waitFor(60_000, () -> admin.getRegions(source).size() == 2);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      for (var region : admin.getRegions(source)) {
        admin.move(region.getEncodedNameAsBytes());
      }
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      for (int i = 300; i < 310; i++) {
        t.put(sender(i, "new").addColumn(b("m"), b("body"), b("new " + i)));
      }
      t.put(sender(28, "moved")); // a move after the split and the move
      t.put(sender(29, LONG_SENDER)); // a target row the index cannot make an entry for
      // Rows too wide for one read (1,000 cells of a family): one the copy placed moves, one the
      // stream places first; both are read again in pieces.
      t.put(wide(30, 1_200).addColumn(b("m"), b("sender"), b("wide")));
      t.put(wide(400, 1_500).addColumn(b("m"), b("sender"), b("s1")));
    }
    int steps = writer.stop();
    assertThat(steps).isGreaterThan(30);

    List<String> expected = StreamIT.awaitMapped(source, target, mapping);
    assertThat(expected)
        .anyMatch(l -> l.contains("=moved"))
        .anyMatch(l -> l.contains("=backdated"));
    assertThat(StreamIT.actual(target)).isEqualTo(expected);
    StreamSettings settings = new StreamSettings(source, target, sourceKey, targetKey, Map.of());
    var refused =
        io.rekey.stream.endpoint.Fences.refused(
            MiniHBase.util().getConnection(), settings.fenceTable(), "rekey_sb_dst");
    assertThat(refused.count()).isEqualTo(2);
    assertThat(refused.examples())
        .anySatisfy(e -> assertThat(e).contains(new String(row(25))).contains("FIELD_MISSING"))
        .anySatisfy(e -> assertThat(e).startsWith("index sb_ix ").contains("KEY_TOO_LONG"));
    List<String> verify =
        StreamIT.migration(List.of("verify"), "sb_src", "sb_dst", sourceKey, targetKey);
    verify.addAll(List.of("--live-scan", "--state-table", STATE, "--accept-unmapped", "1"));
    CliRun verified = cli(verify.toArray(String[]::new));
    assertThat(verified.exit()).as(verified.toString()).isEqualTo(ExitCode.OK);
    CliRun switched =
        cli(
            "stream",
            "switch",
            "--target",
            "sb_dst",
            "--state-table",
            STATE,
            "--settle",
            "0.5",
            "--accept-unmapped",
            "2");
    assertThat(switched.exit()).as(switched.toString()).isEqualTo(ExitCode.OK);
    assertThat(switched.out()).contains("and in its index sb_ix (watermark at the fences");
    assertThat(StreamIT.actual(target)).isEqualTo(StreamIT.expected(source, mapping));
    assertThat(cli("stream", "stop", "--target", "sb_dst").exit()).isEqualTo(ExitCode.OK);
    List<String> covered = List.of("sender", "body");
    List<String> indexed = new ArrayList<>(StreamIT.expectedEntries(target, "sender", covered));
    assertThat(indexed.removeIf(e -> e.startsWith(LONG_SENDER + "|"))).isTrue();
    assertThat(StreamIT.actualEntries(TableName.valueOf("sb_ix"), covered))
        .isEqualTo(indexed)
        .anyMatch(e -> e.startsWith("moved|"))
        .anyMatch(e -> e.startsWith("backdated|"));
    CliRun scrutiny = cli("index", "scrutiny", "--def", index.toString());
    assertThat(scrutiny.exit()).as(scrutiny.toString()).isEqualTo(ExitCode.OK);
    assertThat(scrutiny.out()).doesNotContain("pending");
  }

  /** One step of a {@link Writer}: the {@code step}th write. */
  @FunctionalInterface
  private interface WriteStep {
    void write(org.apache.hadoop.hbase.client.Table t, int step) throws java.io.IOException;
  }

  /** A writer of the source that writes a step every 20 ms until it is stopped. */
  private static final class Writer {
    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final AtomicInteger steps = new AtomicInteger();
    private final Thread thread;

    Writer(TableName table, WriteStep step) {
      thread =
          new Thread(
              () -> {
                try (var t = MiniHBase.util().getConnection().getTable(table)) {
                  while (writing.get()) {
                    step.write(t, steps.getAndIncrement());
                    Thread.sleep(20);
                  }
                } catch (Exception e) {
                  steps.set(-1_000_000); // fails the caller's count
                }
              });
      thread.start();
    }

    /** Stops it; returns the steps it wrote (negative when a write failed). */
    int stop() throws InterruptedException {
      writing.set(false);
      thread.join();
      return steps.get();
    }
  }

  private static final String LONG_SENDER = "x".repeat(30);

  /** Row {@code i} with {@code cells} more columns of {@code m}. */
  private static Put wide(int i, int cells) {
    Put p = new Put(row(i));
    for (int c = 0; c < cells; c++) {
      p.addColumn(b("m"), b(String.format("q%05d", c)), b("cell " + c));
    }
    return p;
  }

  private static byte[] row(int i) {
    return b(StreamIT.T0 + i + "_user" + i % 5 + "_o" + i);
  }

  private static Put sender(int i, String sender) {
    return new Put(row(i)).addColumn(b("m"), b("sender"), b(sender));
  }

  /**
   * One step of an order-dependent writer, on row {@code step} of {@link #writes}: a cell written,
   * deleted and written again at one timestamp; and a cell stamped below a column delete, written
   * after it, which NEW_VERSION_BEHAVIOR shows and HBase's default behavior would hide.
   */
  private static void putDeletePutAndWriteUnderADelete(
      org.apache.hadoop.hbase.client.Table t, int step) throws java.io.IOException {
    byte[] row = b(StreamIT.T0 + step + "_user" + step % 5 + "_o" + step);
    long ts = StreamIT.T0 + 1_000_000 + step;
    t.put(new Put(row).addColumn(b("m"), b("body"), ts, b("first " + step)));
    t.delete(new Delete(row).addColumn(b("m"), b("body"), ts));
    t.put(new Put(row).addColumn(b("m"), b("body"), ts, b("second " + step)));
    long old = StreamIT.LONG_AGO + 10_000 + step;
    t.put(new Put(row).addColumn(b("m"), b("below"), old, b("before its delete " + step)));
    t.delete(new Delete(row).addColumns(b("m"), b("below"), old + 1));
    t.put(new Put(row).addColumn(b("m"), b("below"), old - 1, b("after its delete " + step)));
  }

  /**
   * Also in every cell of the support matrix: the endpoint, the copy and the switch on its HBase.
   */
  @Test
  @Tag("matrix")
  void aStreamStartedBeforeItsCopyMissesNothingWrittenDuringTheCopyWhateverItsTimestamp()
      throws Exception {
    TableName source = StreamIT.table("sc_src");
    TableName target = TableName.valueOf("sc_dst");
    TestTables.put(source, writes(0, 1500, "before the copy"));
    KeyMapping mapping =
        new StreamSettings(source, target, StreamIT.SOURCE_KEY, StreamIT.TARGET_KEY, Map.of())
            .mapping();
    // A writer runs all through the copy: new rows, rows stamped years ago, deletes, and the
    // region server rolls its WAL under it.
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger written = new AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              int i = 10_000;
              while (writing.get()) {
                try {
                  TestTables.put(source, writes(i, 5, "during the copy"));
                  try (var t = MiniHBase.util().getConnection().getTable(source)) {
                    int old = i % 1500;
                    t.delete(new Delete(b(StreamIT.T0 + old + "_user" + old % 5 + "_o" + old)));
                  }
                  i += 5;
                  if (written.addAndGet(6) % 60 == 0) {
                    // A new WAL now and then: a peer added later than the copy's snapshot would
                    // not hold the earlier ones (HBase starts a new peer at the current WAL).
                    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
                      for (var server : admin.getRegionServers()) {
                        admin.rollWALWriter(server);
                      }
                    }
                  }
                  Thread.sleep(50);
                } catch (Exception e) {
                  return;
                }
              }
            });
    writer.start();
    CliRun started = startWithCopy("sc_src", "sc_dst");
    Thread.sleep(1_000);
    writing.set(false);
    writer.join();
    assertThat(started.exit()).as(started.toString()).isEqualTo(ExitCode.OK);
    assertThat(started.out()).contains("stream start: sc_src -> sc_dst").contains("enabled");
    assertThat(written.get()).isGreaterThan(30);

    StreamIT.awaitMapped(source, target, mapping);
    verifyLive("sc_src", "sc_dst");
    CliRun switched =
        cli("stream", "switch", "--target", "sc_dst", "--state-table", STATE, "--settle", "0.5");
    List<String> now = StreamIT.actual(target);
    assertThat(switched.exit()).as(switched.toString()).isEqualTo(ExitCode.OK);
    assertThat(now).isEqualTo(StreamIT.expected(source, mapping));
    assertThat(cli("stream", "stop", "--target", "sc_dst").exit()).isEqualTo(ExitCode.OK);
  }

  @Test
  void aSwitchWithoutAStreamIsRefusedInOneLine() {
    CliRun none = cli("stream", "switch", "--target", "sw_none", "--state-table", STATE);
    assertThat(none.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(none.err())
        .as(none.toString())
        .contains("there is no stream (replication peer) 'rekey_sw_none'");
  }
}
