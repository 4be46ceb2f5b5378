package io.rekey.stream;

import static io.rekey.stream.StreamIT.SOURCE_KEY;
import static io.rekey.stream.StreamIT.TARGET_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.run.RunState;
import io.rekey.stream.endpoint.StreamSettings;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.TestTables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The region server that holds the source dies with edits it has not shipped: another claims its
 * WAL queue (a recovered queue, with an endpoint of its own) and ships them, at least once, while
 * the source's region now writes to the new server's WAL. The target ends as the source mapped,
 * cell by cell: nothing lost, and nothing doubled by a batch shipped again. A second stream, of a
 * table with NEW_VERSION_BEHAVIOR, has a write and its delete in the dead server's WAL and the
 * write again at that timestamp in the new server's: its serial peer ships them in that order. A
 * third, whose new key is bound to a column and which keeps an index, has rows moved and deleted in
 * the dead server's WAL and moved back in the new one's: the target follows each row, and the index
 * the target.
 */
@LongTier
@ExtendWith(MiniHBase.class)
class StreamFailoverIT {
  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static List<Put> puts(int from, int to) {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      puts.add(
          new Put(b((StreamIT.T0 + i) + "_user" + (i % 5) + "_o" + i))
              .addColumn(b("m"), b("body"), StreamIT.T0 + i, b("v" + i))
              .addColumn(b("m"), b("imported"), StreamIT.LONG_AGO + i, b("old " + i)));
    }
    return puts;
  }

  /**
   * Writes {@code m:body} of each of the first {@code rows} rows of {@link #puts} at one timestamp,
   * and with {@code delete} deletes that version again: under NEW_VERSION_BEHAVIOR a write after
   * the delete shows, one before it does not.
   */
  private static void writeAndDelete(TableName table, int rows, String value, boolean delete)
      throws java.io.IOException {
    try (Table t = MiniHBase.util().getConnection().getTable(table)) {
      for (int i = 0; i < rows; i++) {
        byte[] row = b((StreamIT.T0 + i) + "_user" + (i % 5) + "_o" + i);
        long ts = StreamIT.T0 + 1_000_000 + i;
        t.put(new Put(row).addColumn(b("m"), b("body"), ts, b(value)));
        if (delete) {
          t.delete(new Delete(row).addColumn(b("m"), b("body"), ts));
        }
      }
    }
  }

  @Test
  void editsOfADeadRegionServerAreShippedByTheServerThatClaimsItsQueue() throws Exception {
    TableName source = TableName.valueOf("sf_src");
    TableName target = TableName.valueOf("sf_dst");
    for (TableName t : List.of(source, target)) {
      TestTables.create(
          t,
          org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(b("m"))
              .setMaxVersions(5)
              .build());
    }
    TableName ordered = StreamIT.orderedTable("sfo_src");
    BoundStream moving = new BoundStream();
    TableName orderedTarget = StreamIT.orderedTable("sfo_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    StreamSettings inOrder =
        new StreamSettings(ordered, orderedTarget, SOURCE_KEY, TARGET_KEY, Map.of());
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      StreamPeer.start(admin, admin, "rekey_sf", settings);
      StreamPeer.start(admin, admin, "rekey_sfo", inOrder);
      StreamPeer.start(admin, admin, "rekey_sfb", moving.settings);
      assertThat(StreamPeer.status(admin, "rekey_sfo").serial()).isTrue();
      // Both tables' regions on one server, the one that dies (the long tier's cluster may have
      // several by now).
      ServerName sourceServer =
          cluster
              .getRegionServer(
                  cluster.getServerWith(admin.getRegions(source).get(0).getRegionName()))
              .getServerName();
      admin.move(admin.getRegions(ordered).get(0).getEncodedNameAsBytes(), sourceServer);
      admin.move(admin.getRegions(moving.source).get(0).getEncodedNameAsBytes(), sourceServer);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      moving.write(0, 60, "s"); // placed while the stream runs
      TestTables.put(ordered, puts(0, 50));
      TableName stateTable = TableName.valueOf("sf_state");
      RunState state = new RunState(MiniHBase.util().getConnection(), stateTable, target);
      state.ensureTable();
      // A comparison of the target, recorded as verify records one: the switch asks for it.
      long now = System.currentTimeMillis();
      state.recorded(
          now,
          () -> null,
          r ->
              "{\"run\":\"verify\",\"outcome\":\"match\",\"started\":\""
                  + java.time.Instant.ofEpochMilli(now)
                  + "\",\"seconds\":0.5}",
          m -> m);
      // Edits pile up in the source server's WAL queue, unshipped.
      admin.disableReplicationPeer("rekey_sf");
      admin.disableReplicationPeer("rekey_sfo");
      admin.disableReplicationPeer("rekey_sfb");
      TestTables.put(source, puts(0, 200));
      moving.write(0, 30, "moved"); // moves, in the WAL that dies
      moving.delete(40);
      writeAndDelete(ordered, 50, "first", true);
      try (Table t = MiniHBase.util().getConnection().getTable(source)) {
        t.delete(new Delete(b((StreamIT.T0 + 3) + "_user3_o3")));
      }
      HRegionServer holder =
          cluster.getRegionServer(
              cluster.getServerWith(admin.getRegions(source).get(0).getRegionName()));
      assertThat(cluster.getServerWith(admin.getRegions(ordered).get(0).getRegionName()))
          .as("the order-dependent table's region is on the server that dies")
          .isEqualTo(cluster.getServerWith(admin.getRegions(source).get(0).getRegionName()));
      JVMClusterUtil.RegionServerThread second = cluster.startRegionServer();
      second.waitForServerOnline();
      ServerName dead = holder.getServerName();
      holder.abort("injected: the source's region server dies with unshipped edits");
      MiniHBase.util().waitFor(120_000, () -> holder.isStopped());
      MiniHBase.util().waitUntilNoRegionsInTransition(120_000);
      MiniHBase.util().waitTableAvailable(source, 60_000);
      MiniHBase.util().waitTableAvailable(target, 60_000);
      assertThat(admin.getRegions(second.getRegionServer().getServerName())).isNotEmpty();
      admin.enableReplicationPeer("rekey_sf");
      admin.enableReplicationPeer("rekey_sfo");
      admin.enableReplicationPeer("rekey_sfb");
      // And more edits, now in the new server's own WAL.
      TestTables.put(source, puts(200, 300));
      moving.write(0, 10, "s"); // moves back
      moving.write(60, 70, "new");
      writeAndDelete(ordered, 50, "second", false);

      // The writers stop here. A switch asked at once, while the claimed queue may still ship the
      // dead server's WAL, must refuse or be right at that instant; asked again, it says switch.
      StreamSwitchResult verdict = null;
      List<String> refusals = new ArrayList<>();
      long until = System.currentTimeMillis() + 120_000;
      while (System.currentTimeMillis() < until && (verdict == null || !verdict.switchNow())) {
        verdict =
            StreamSwitch.run(
                MiniHBase.util().getConnection(),
                MiniHBase.util().getConnection(),
                StreamPeer.status(admin, "rekey_sf"),
                new StreamSwitch.Options(
                    stateTable,
                    Duration.ofMillis(500),
                    Duration.ofSeconds(10),
                    Duration.ofHours(1),
                    null));
        if (verdict.switchNow()) {
          assertThat(StreamIT.actual(target))
              .as("the target when the switch said switch, after refusals %s", refusals)
              .isEqualTo(StreamIT.expected(source, settings.mapping()));
        } else {
          refusals.add(verdict.refusal());
        }
      }
      assertThat(verdict.switchNow()).as("refusals: %s", refusals).isTrue();
      List<String> expected = StreamIT.expected(source, settings.mapping());
      assertThat(StreamIT.actual(target)).isEqualTo(expected);
      assertThat(expected).hasSize(300 * 2 - 2);
      assertThat(dead).isNotEqualTo(second.getRegionServer().getServerName());
      StreamPeer.stop(admin, "rekey_sf");

      List<String> inItsOrder = StreamIT.awaitMapped(ordered, orderedTarget, inOrder.mapping());
      assertThat(inItsOrder.stream().filter(l -> l.contains("=second")).count()).isEqualTo(50);
      assertThat(inItsOrder).noneMatch(l -> l.contains("=first"));
      assertThat(StreamIT.actual(orderedTarget)).isEqualTo(inItsOrder);
      StreamPeer.stop(admin, "rekey_sfo");

      moving.assertFollowed();
      StreamPeer.stop(admin, "rekey_sfb");
    }
  }

  /**
   * A third stream, whose new key is bound to {@code m:sender} and which keeps an index of its
   * target by sender: its rows move, move back and are deleted across the server's death, placed
   * through the key map the stream keeps.
   */
  private static final class BoundStream {
    final TableName source;
    final TableName target = TableName.valueOf("sfb_dst");
    final TableName index = TableName.valueOf("sfb_ix");
    final StreamSettings settings;

    BoundStream() throws java.io.IOException {
      source = StreamIT.scopedTable("sfb_src");
      TestTables.create(
          target,
          org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(b("m"))
              .setMaxVersions(5)
              .setNewVersionBehavior(true)
              .build());
      TestTables.create(
          index,
          org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(b("i")).build(),
          org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(b("r"))
              .setMaxVersions(2)
              .build());
      settings =
          new StreamSettings(
                  source, target, StreamIT.BOUND_SOURCE_KEY, StreamIT.BOUND_TARGET_KEY, Map.of())
              .withIndexes(
                  List.of(
                      new StreamSettings.StreamedIndex(
                          index,
                          new io.rekey.index.entries.IndexShape(
                              new io.rekey.index.entries.IndexShape.Column("m", "sender"),
                              null,
                              List.of(
                                  new io.rekey.index.entries.IndexShape.Column("m", "sender"),
                                  new io.rekey.index.entries.IndexShape.Column("m", "body")),
                              "i",
                              io.rekey.index.entries.IndexKey.parse(
                                  "key", io.rekey.index.entries.IndexKey.DEFAULT_LAYOUT, 1024),
                              false),
                          TableName.valueOf("sf_state"))));
    }

    private static byte[] row(int i) {
      return b((StreamIT.T0 + i) + "_user" + (i % 5) + "_o" + i);
    }

    /** Rows {@code from} to {@code to}: sender {@code sender + i % 3} and a body. */
    void write(int from, int to, String sender) throws java.io.IOException {
      List<Put> puts = new ArrayList<>();
      for (int i = from; i < to; i++) {
        puts.add(
            new Put(row(i))
                .addColumn(b("m"), b("sender"), b(sender + i % 3))
                .addColumn(b("m"), b("body"), b(sender + " body " + i)));
      }
      TestTables.put(source, puts);
    }

    void delete(int i) throws java.io.IOException {
      try (Table t = MiniHBase.util().getConnection().getTable(source)) {
        t.delete(new Delete(row(i)));
      }
    }

    /** The target is the source placed by each row's sender now, and the index is the target's. */
    void assertFollowed() throws Exception {
      List<String> mapped = StreamIT.awaitMapped(source, target, settings.mapping());
      assertThat(mapped).anyMatch(l -> l.contains("=moved")).anyMatch(l -> l.contains("=new"));
      assertThat(StreamIT.actual(target)).isEqualTo(mapped);
      List<String> covered = List.of("sender", "body");
      List<String> expected = StreamIT.expectedEntries(target, "sender", covered);
      assertThat(expected).hasSize(69);
      assertThat(StreamIT.actualEntries(index, covered)).isEqualTo(expected);
    }
  }
}
