package io.rekey.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.cli.ExitCode;
import io.rekey.common.RekeyException;
import io.rekey.keys.KeyMapping;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.RekeyingEndpoint;
import io.rekey.stream.endpoint.StreamSettings;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.replication.ReplicationEndpoint;
import org.apache.hadoop.hbase.replication.ReplicationPeer;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfigListener;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WAL;
import org.apache.hadoop.hbase.wal.WALEdit;
import org.apache.hadoop.hbase.wal.WALKeyImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rekey stream on a real mini cluster: a replication peer whose endpoint re-keys every WAL edit
 * of the source into the target. Writes of any timestamp (backdated ones, which a sync by cell
 * timestamp cannot see), version deletes, column deletes and whole-row deletes all reach the target
 * under the new key, and the target then reads as the source mapped, cell by cell.
 */
@ExtendWith(MiniHBase.class)
class StreamIT {
  static final String SOURCE_KEY = "text: ts:long + '_' + user + '_' + order";
  static final String TARGET_KEY = "salt(4, user) + user + reverse_ts(ts) + order";
  static final long T0 = 1_767_225_600_000L;
  static final long LONG_AGO = 978_307_200_000L; // 2001

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  /** The stream ITs' layouts whose new key is bound to the column {@code m:sender}. */
  static final String BOUND_SOURCE_KEY = SOURCE_KEY + " ; sender = m:sender";

  static final String BOUND_TARGET_KEY = "salt(4, sender) + sender + user + reverse_ts(ts) + order";

  /**
   * A source of family {@code m} for a serial stream: the global replication scope, for which HBase
   * records the region barriers a serial peer orders by.
   */
  static TableName scopedTable(String name) throws java.io.IOException {
    TableName t = TableName.valueOf(name);
    TestTables.create(
        t,
        ColumnFamilyDescriptorBuilder.newBuilder(b("m"))
            .setMaxVersions(5)
            .setScope(org.apache.hadoop.hbase.HConstants.REPLICATION_SCOPE_GLOBAL)
            .build());
    return t;
  }

  static TableName table(String name) throws Exception {
    TableName t = TableName.valueOf(name);
    TestTables.create(
        t, ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setMaxVersions(5).build());
    return t;
  }

  /**
   * A table of family {@code m} whose edits must land in order: NEW_VERSION_BEHAVIOR, and the
   * global replication scope for which HBase records the region barriers a serial peer orders by.
   */
  static TableName orderedTable(String name) throws Exception {
    TableName t = TableName.valueOf(name);
    TestTables.create(
        t,
        ColumnFamilyDescriptorBuilder.newBuilder(b("m"))
            .setMaxVersions(5)
            .setNewVersionBehavior(true)
            .setScope(org.apache.hadoop.hbase.HConstants.REPLICATION_SCOPE_GLOBAL)
            .build());
    return t;
  }

  private static String row(long ts, int user, int order) {
    return ts + "_user" + user + "_o" + order;
  }

  static List<String> expected(TableName source, KeyMapping mapping) throws Exception {
    return TestTables.mapped(source, mapping);
  }

  static List<String> actual(TableName target) throws Exception {
    return TestTables.sortedCells(target);
  }

  /**
   * What an index of {@code table} by {@code column} (family {@code m}) covering {@code covered}
   * must hold, read independently of the index's code: for each row holding the column, the newest
   * values of the covered columns; sorted.
   */
  static List<String> expectedEntries(TableName table, String column, List<String> covered)
      throws IOException {
    List<String> out = new ArrayList<>();
    try (Table t = MiniHBase.util().getConnection().getTable(table);
        ResultScanner scan = t.getScanner(new Scan().addFamily(Bytes.toBytes("m")))) {
      for (Result r : scan) {
        if (r.getValue(Bytes.toBytes("m"), Bytes.toBytes(column)) != null) {
          List<String> values = new ArrayList<>();
          for (String c : covered) {
            byte[] v = r.getValue(Bytes.toBytes("m"), Bytes.toBytes(c));
            values.add(v == null ? "-" : Bytes.toStringBinary(v));
          }
          out.add(String.join("|", values));
        }
      }
    }
    java.util.Collections.sort(out);
    return out;
  }

  /**
   * What an index table holds, read raw: each entry row (family {@code i}, which must hold the
   * marker) as its covered values of family {@code m}; sorted. A retired entry left behind, or one
   * that missed a change, makes this differ from {@link #expectedEntries}.
   */
  static List<String> actualEntries(TableName index, List<String> covered) throws IOException {
    List<String> out = new ArrayList<>();
    try (Table t = MiniHBase.util().getConnection().getTable(index);
        ResultScanner scan = t.getScanner(new Scan().addFamily(Bytes.toBytes("i")))) {
      for (Result r : scan) {
        assertThat(r.getValue(Bytes.toBytes("i"), Bytes.toBytes("_")))
            .as("the marker of entry " + Bytes.toStringBinary(r.getRow()))
            .isNotNull();
        List<String> values = new ArrayList<>();
        for (String c : covered) {
          byte[] v = r.getValue(Bytes.toBytes("i"), Bytes.toBytes("m:" + c));
          values.add(v == null ? "-" : Bytes.toStringBinary(v));
        }
        out.add(String.join("|", values));
      }
    }
    java.util.Collections.sort(out);
    return out;
  }

  /** Waits until the target reads as the source mapped; returns the last comparison. */
  static List<String> awaitMapped(TableName source, TableName target, KeyMapping mapping)
      throws Exception {
    long until = System.currentTimeMillis() + 90_000;
    List<String> expected = expected(source, mapping);
    while (System.currentTimeMillis() < until && !actual(target).equals(expected)) {
      Thread.sleep(250);
      expected = expected(source, mapping);
    }
    return expected;
  }

  /** The command-line arguments of {@code verb} (say {@code stream start}) for a migration. */
  static List<String> migration(
      List<String> verb, String source, String target, String sourceKey, String targetKey) {
    List<String> args = new ArrayList<>(verb);
    args.addAll(
        List.of(
            "--source",
            source,
            "--target",
            target,
            "--source-key",
            sourceKey,
            "--target-key",
            targetKey));
    return args;
  }

  /** {@code stream start --no-copy} through the command line, on the mini cluster. */
  static CliRun startCli(
      String source, String target, String sourceKey, String targetKey, String... more) {
    List<String> args = migration(List.of("stream", "start"), source, target, sourceKey, targetKey);
    args.addAll(List.of("--no-copy", "--zk", MiniHBase.zkQuorum()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void everyEditWhateverItsTimestampReachesTheTargetUnderItsNewKey() throws Exception {
    TableName source = table("st_src");
    TableName target = table("st_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    KeyMapping mapping = settings.mapping();
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      // Limited as HBase limits any peer (100 MiB a second: no limit this test reaches).
      CliRun started =
          startCli("st_src", "st_dst", SOURCE_KEY, TARGET_KEY, "--bandwidth", "104857600");
      assertThat(started.exit()).as(started.err()).isEqualTo(ExitCode.OK);
      assertThat(started.out())
          .contains("enabled, at most 104,857,600 bytes a second from each region server)");
      assertThat(StreamPeer.status(admin, "rekey_st_dst").enabled()).isTrue();
      assertThat(admin.getReplicationPeerConfig("rekey_st_dst").getBandwidth())
          .isEqualTo(104_857_600L);
      assertThatThrownBy(() -> StreamPeer.start(admin, admin, "rekey_st_dst", settings))
          .isInstanceOf(RekeyException.class)
          .hasMessageContaining("exists already");

      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        Put p = new Put(b(row(T0 + i, i % 7, i)));
        p.addColumn(b("m"), b("body"), T0 + i, b("hello " + i));
        p.addColumn(b("m"), b("body"), T0 + i + 1, b("edited " + i));
        // Stamped in the past: a sync by timestamp window would never see it.
        p.addColumn(b("m"), b("imported"), LONG_AGO + i, b("from the archive " + i));
        puts.add(p);
      }
      // A row the layout cannot read: counted and logged by the endpoint, never written.
      puts.add(new Put(b("not-a-message")).addColumn(b("m"), b("body"), T0, b("x")));
      TestTables.put(source, puts);
      try (Table t = MiniHBase.util().getConnection().getTable(source)) {
        t.delete(new Delete(b(row(T0 + 1, 1, 1))).addColumn(b("m"), b("body"), T0 + 2));
        t.delete(new Delete(b(row(T0 + 2, 2, 2))).addColumns(b("m"), b("body")));
        t.delete(new Delete(b(row(T0 + 3, 3, 3))));
        t.delete(new Delete(b(row(T0 + 4, 4, 4))).addFamily(b("m"), LONG_AGO + 4));
      }

      List<String> expected = awaitMapped(source, target, mapping);
      assertThat(actual(target)).isEqualTo(expected);
      assertThat(expected).hasSize(60 * 3 - 1 - 2 - 3 - 1);
      assertThat(expected).noneMatch(l -> l.contains("not-a-message"));

      // The endpoint records what it wrote right after writing it: status shows every cell, once
      // (60 rows of 3 cells and 4 delete markers).
      CliRun status = null;
      for (int i = 0; i < 50 && (status == null || !status.out().contains(": 184 cells")); i++) {
        Thread.sleep(status == null ? 0 : 200);
        status = CliRun.of("stream", "status", "--target", "st_dst", "--zk", MiniHBase.zkQuorum());
      }
      assertThat(status.exit()).isEqualTo(ExitCode.OK);
      assertThat(status.out())
          .contains(
              "stream status: st_src -> st_dst (replication peer rekey_st_dst, enabled, at most"
                  + " 104,857,600 bytes a second from each region server)")
          .containsPattern("target writes  \\S+: 184 cells written");
      CliRun stop = CliRun.of("stream", "stop", "--target", "st_dst", "--zk", MiniHBase.zkQuorum());
      assertThat(stop.exit()).isEqualTo(ExitCode.OK);
      assertThat(stop.out())
          .contains("removed the replication peer rekey_st_dst (st_src -> st_dst)");
      assertThat(StreamPeer.status(admin, "rekey_st_dst")).isNull();
      assertThat(
              CliRun.of("stream", "stop", "--target", "st_dst", "--zk", MiniHBase.zkQuorum())
                  .exit())
          .isEqualTo(ExitCode.FAILED);
    }
  }

  @Test
  void aStreamIsRefusedInOneLineForAMissingTableAKeyBoundToAColumnOrAnUnorderedSerialSource()
      throws Exception {
    table("st_ref_src");
    CliRun missing = startCli("st_ref_src", "st_nosuch", SOURCE_KEY, TARGET_KEY);
    assertThat(missing.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(missing.err()).contains("the target table st_nosuch does not exist");
    // A stream keeps the indexes of the table it writes, not those of another.
    java.nio.file.Path other = java.nio.file.Files.createTempFile("st_ref_ix", ".properties");
    java.nio.file.Files.writeString(
        other, "source = st_ref_src\ncolumn = m:sender\nindex-table = st_ref_ix\n");
    CliRun index =
        startCli("st_ref_src", "st_ref_dst", SOURCE_KEY, TARGET_KEY, "--index", other.toString());
    assertThat(index.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(index.err())
        .contains("--index is '" + other + "'")
        .contains("indexes st_ref_src, but the stream writes st_ref_dst")
        .contains("give a definition with source = st_ref_dst");
    // A key bound to a column streams only where the new key gives back the row it was made of.
    CliRun bound =
        startCli("st_ref_src", "st_ref_src", SOURCE_KEY + " ; s = m:sender", "s + reverse_ts(ts)");
    assertThat(bound.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(bound.err()).contains("cannot be streamed").contains("does not keep user, order");
    // And into a target whose markers would hide a row that moves back for good.
    TestTables.create(TableName.valueOf("st_plain_dst"), ColumnFamilyDescriptorBuilder.of(b("m")));
    SparkLocal.context(); // a key map is seeded by a Spark job: the test JVM's session
    CliRun plain =
        startCli(
            "st_ref_src",
            "st_plain_dst",
            SOURCE_KEY + " ; s = m:sender",
            "s + user + reverse_ts(ts) + order");
    assertThat(plain.exit()).as(plain.toString()).isEqualTo(ExitCode.FAILED);
    assertThat(plain.err())
        .contains("must keep NEW_VERSION_BEHAVIOR")
        .contains("alter 'st_plain_dst', {NAME => 'FAMILY', NEW_VERSION_BEHAVIOR => true}");
    TestTables.create(
        TableName.valueOf("st_nvb_dst"),
        ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setNewVersionBehavior(true).build());
    // An order-dependent target needs a serial peer, which orders nothing for a source that HBase
    // records no region barriers for.
    CliRun ordered = startCli("st_ref_src", "st_nvb_dst", SOURCE_KEY, TARGET_KEY);
    assertThat(ordered.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(ordered.err())
        .contains("the stream st_ref_src -> st_nvb_dst must keep each row's edits in their order")
        .contains("nothing was created: alter 'st_ref_src', {NAME => 'm', REPLICATION_SCOPE => 1}");
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      assertThat(admin.listReplicationPeers()).isEmpty();
    }
  }

  /**
   * A bulk load into the source reaches the target: the WAL holds only its marker, and the endpoint
   * reads the cells (Puts, one stamped years ago, and a delete marker) from the loaded files. A
   * load whose files a compaction replaced and the archive's cleaner deleted before the stream read
   * them is recorded as refused, naming the file.
   */
  @Test
  void aBulkLoadIntoTheSourceIsCarriedAndOneWhoseFilesAreGoneIsRecordedAsRefused()
      throws Exception {
    TableName source = table("st_bulk_src");
    TableName target = table("st_bulk_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      StreamPeer.start(admin, admin, "rekey_bulk", settings);
      TestTables.put(
          source,
          List.of(new Put(b(row(T0 + 2, 3, 2))).addColumn(b("m"), b("body"), T0, b("put"))));
      TestTables.bulkLoad(
          source,
          List.of(
              new org.apache.hadoop.hbase.KeyValue(
                  b(row(T0, 1, 1)), b("m"), b("body"), T0, b("bulk loaded")),
              new org.apache.hadoop.hbase.KeyValue(
                  b(row(T0 + 1, 2, 1)), b("m"), b("body"), LONG_AGO, b("bulk loaded, archived")),
              new org.apache.hadoop.hbase.KeyValue(
                  b(row(T0 + 2, 3, 2)),
                  b("m"),
                  b("body"),
                  T0 + 5,
                  org.apache.hadoop.hbase.KeyValue.Type.DeleteColumn)));
      List<String> expected = awaitMapped(source, target, settings.mapping());
      assertThat(actual(target)).isEqualTo(expected);
      assertThat(expected)
          .hasSize(2)
          .anyMatch(l -> l.endsWith("=bulk loaded"))
          .anyMatch(l -> l.endsWith("=bulk loaded, archived"));

      // A load the stream reads only after its file was compacted away and deleted.
      admin.disableReplicationPeer("rekey_bulk");
      TestTables.bulkLoad(
          source,
          List.of(
              new org.apache.hadoop.hbase.KeyValue(
                  b(row(T0 + 9, 4, 9)), b("m"), b("body"), T0, b("gone"))));
      org.apache.hadoop.fs.Path archived =
          new org.apache.hadoop.fs.Path(
              MiniHBase.util().getConfiguration().get("hbase.rootdir"),
              "archive/data/default/st_bulk_src");
      org.apache.hadoop.fs.FileSystem fs =
          archived.getFileSystem(MiniHBase.util().getConfiguration());
      MiniHBase.util().compact(source, true);
      for (int i = 0; i < 100 && !fs.exists(archived); i++) {
        for (var region : MiniHBase.util().getMiniHBaseCluster().getRegions(source)) {
          for (var store : region.getStores()) {
            store.closeAndArchiveCompactedFiles(); // what HBase's discharger chore does
          }
        }
        Thread.sleep(200);
      }
      assertThat(fs.delete(archived, true)).isTrue(); // what the archive's cleaner does
      admin.enableReplicationPeer("rekey_bulk");
      // A write after the load: once it is in the target, the load's marker was shipped too.
      TestTables.put(
          source, List.of(new Put(b(row(T0, 3, 3))).addColumn(b("m"), b("body"), T0, b("after"))));
      byte[] after = settings.mapping().map(b(row(T0, 3, 3)), (f, q) -> null);
      try (Table t = MiniHBase.util().getConnection().getTable(target)) {
        for (int i = 0; i < 150 && t.get(new Get(after)).isEmpty(); i++) {
          Thread.sleep(200);
        }
        assertThat(t.get(new Get(after)).isEmpty()).isFalse();
      }
      Fences.Refused refused = null;
      for (int i = 0; i < 50 && (refused == null || refused.count() == 0); i++) {
        Thread.sleep(refused == null ? 0 : 200);
        refused =
            Fences.refused(MiniHBase.util().getConnection(), settings.fenceTable(), "rekey_bulk");
      }
      assertThat(refused.count()).isEqualTo(1);
      assertThat(refused.examples().get(0))
          .startsWith("HBASE::BULK_LOAD of region ")
          .contains("was deleted before the stream read it")
          .contains("write its cells with 'rekey repair'");
      assertThat(actual(target)).noneMatch(l -> l.endsWith("=gone"));
      StreamPeer.stop(admin, "rekey_bulk");
    }
  }

  /** Ships {@code batch} to an endpoint into {@code once}, and twice to one into {@code twice}. */
  private static void shipOnceAndTwice(
      TableName source, TableName once, TableName twice, List<WAL.Entry> batch, boolean serial)
      throws Exception {
    RekeyingEndpoint first = endpoint(source, once, serial);
    RekeyingEndpoint second = endpoint(source, twice, serial);
    try {
      assertThat(first.replicate(new ReplicationEndpoint.ReplicateContext().setEntries(batch)))
          .isTrue();
      for (int i = 0; i < 2; i++) {
        assertThat(second.replicate(new ReplicationEndpoint.ReplicateContext().setEntries(batch)))
            .isTrue();
      }
    } finally {
      first.stop();
      second.stop();
    }
  }

  /**
   * An endpoint of a stream into {@code target}, as a region server makes one, of a serial peer or
   * not.
   */
  private static RekeyingEndpoint endpoint(TableName source, TableName target, boolean serial)
      throws Exception {
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    // Where it records what it wrote: a peer's start creates it, and this test adds no peer.
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      Fences.ensureTable(admin, settings.fenceTable(), 1);
    }
    ReplicationPeerConfig config =
        ReplicationPeerConfig.newBuilder()
            .setReplicationEndpointImpl(RekeyingEndpoint.class.getName())
            .setSerial(serial)
            .putAllConfiguration(settings.toPeerConfiguration())
            .build();
    RekeyingEndpoint endpoint = new RekeyingEndpoint();
    Configuration conf = MiniHBase.util().getConfiguration();
    endpoint.init(
        new ReplicationEndpoint.Context(
            conf,
            conf,
            null,
            "replay",
            UUID.randomUUID(),
            new FixedPeer(config),
            null,
            null,
            null));
    endpoint.start();
    return endpoint;
  }

  /** A peer whose configuration does not change. */
  private record FixedPeer(ReplicationPeerConfig config) implements ReplicationPeer {
    @Override
    public String getId() {
      return "replay";
    }

    @Override
    public PeerState getPeerState() {
      return PeerState.ENABLED;
    }

    @Override
    public ReplicationPeerConfig getPeerConfig() {
      return config;
    }

    @Override
    public Configuration getConfiguration() {
      return MiniHBase.util().getConfiguration();
    }

    @Override
    public Map<TableName, List<String>> getTableCFs() {
      return Map.of();
    }

    @Override
    public java.util.Set<String> getNamespaces() {
      return java.util.Set.of();
    }

    @Override
    public long getPeerBandwidth() {
      return 0;
    }

    @Override
    public void registerPeerConfigListener(ReplicationPeerConfigListener listener) {}
  }

  private static WAL.Entry entry(TableName table, Mutation... mutations) {
    WALEdit edit = new WALEdit();
    for (Mutation m : mutations) {
      m.getFamilyCellMap().values().forEach(cells -> cells.forEach(edit::add));
    }
    return new WAL.Entry(new WALKeyImpl(b("region"), table, System.currentTimeMillis()), edit);
  }

  /**
   * Writes {@code edits} into {@code source}, in order, and returns them as the WAL entries its log
   * holds (a batch, mutable: a test may add to it).
   */
  private static List<WAL.Entry> logged(TableName source, List<Mutation> edits)
      throws java.io.IOException {
    List<WAL.Entry> batch = new ArrayList<>();
    try (Table t = MiniHBase.util().getConnection().getTable(source)) {
      for (Mutation m : edits) {
        if (m instanceof Put p) {
          t.put(p);
        } else {
          t.delete((Delete) m);
        }
        batch.add(entry(source, m));
      }
    }
    return batch;
  }

  @Test
  void aBatchTheEndpointIsShippedTwiceLeavesTheTargetAsOnce() throws Exception {
    TableName source = table("st_replay_src");
    byte[] r1 = b(row(T0, 1, 1));
    byte[] r2 = b(row(T0 + 1, 2, 2));
    List<Mutation> edits =
        List.of(
            new Put(r1)
                .addColumn(b("m"), b("body"), T0, b("v1"))
                .addColumn(b("m"), b("x"), T0, b("x")),
            new Delete(r1).addColumn(b("m"), b("x"), T0),
            new Put(r2).addColumn(b("m"), b("body"), LONG_AGO, b("old")),
            new Delete(r2).addFamily(b("m"), LONG_AGO - 1));
    // The source holds what its log says: the endpoint reads cells stamped in the past back from
    // it.
    List<WAL.Entry> batch = logged(source, edits);
    TableName once = table("st_replay_once");
    TableName twice = table("st_replay_twice");
    // Another table's edit, which the endpoint leaves alone.
    batch.add(entry(TableName.valueOf("other"), new Put(r1).addColumn(b("m"), b("y"), T0, b("y"))));
    shipOnceAndTwice(source, once, twice, batch, false);
    assertThat(actual(twice)).isEqualTo(actual(once)).hasSize(2);
    assertThat(actual(once)).anyMatch(l -> l.contains("m:body/" + T0 + "=v1"));
    assertThat(actual(once)).anyMatch(l -> l.contains("m:body/" + LONG_AGO + "=old"));
  }

  /**
   * The same for a serial stream into an order-dependent target: a put, a delete and a put at one
   * timestamp, and a cell written under an older column delete, shipped once and twice, each time
   * in the batch's order, read as the source reads them.
   */
  @Test
  void anOrderedBatchShippedTwiceLeavesAnOrderDependentTargetAsOnce() throws Exception {
    TableName source = orderedTable("st_oreplay_src");
    byte[] r1 = b(row(T0, 1, 1));
    byte[] r2 = b(row(T0 + 1, 2, 2));
    List<Mutation> edits =
        List.of(
            new Put(r1).addColumn(b("m"), b("body"), T0, b("first")),
            new Delete(r1).addColumn(b("m"), b("body"), T0),
            new Put(r1).addColumn(b("m"), b("body"), T0, b("second")),
            new Put(r2).addColumn(b("m"), b("body"), LONG_AGO, b("before its delete")),
            new Delete(r2).addColumns(b("m"), b("body"), LONG_AGO + 1),
            new Put(r2).addColumn(b("m"), b("body"), LONG_AGO - 1, b("after its delete")));
    List<WAL.Entry> batch = logged(source, edits);
    TableName once = orderedTable("st_oreplay_once");
    TableName twice = orderedTable("st_oreplay_twice");
    shipOnceAndTwice(source, once, twice, batch, true);
    List<String> expected =
        expected(
            source, new StreamSettings(source, once, SOURCE_KEY, TARGET_KEY, Map.of()).mapping());
    assertThat(expected)
        .hasSize(2)
        .anyMatch(l -> l.endsWith("=second"))
        .anyMatch(l -> l.endsWith("=after its delete"));
    assertThat(actual(once)).isEqualTo(expected);
    assertThat(actual(twice)).isEqualTo(expected);
  }

  @Test
  void editsReachTheTargetWhileTheSourcesRegionIsSplitAndMoved() throws Exception {
    TableName source = table("st_split_src");
    TableName target = table("st_split_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      StreamPeer.start(admin, admin, "rekey_split", settings);
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 90; i++) {
        puts.add(
            new Put(b(row(T0 + i * 1000L, i % 4, i)))
                .addColumn(b("m"), b("body"), LONG_AGO + i, b("v" + i)));
      }
      TestTables.put(source, puts.subList(0, 30));
      admin.split(source, b(String.valueOf(T0 + 45 * 1000L)));
      MiniHBase.util().waitFor(60_000, () -> admin.getRegions(source).size() == 2);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      TestTables.put(source, puts.subList(30, 60));
      for (var region : admin.getRegions(source)) {
        admin.move(region.getEncodedNameAsBytes()); // closed and opened again
      }
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      TestTables.put(source, puts.subList(60, 90));
      try (Table t = MiniHBase.util().getConnection().getTable(source)) {
        t.delete(new Delete(b(row(T0 + 50 * 1000L, 2, 50))));
      }

      List<String> expected = awaitMapped(source, target, settings.mapping());
      assertThat(actual(target)).isEqualTo(expected).hasSize(89);
      StreamPeer.stop(admin, "rekey_split");
    }
  }

  @Test
  void aTargetThatRefusesWritesStallsTheStreamWhichCatchesUpWhenItIsBack() throws Exception {
    TableName source = table("st_stall_src");
    TableName target = table("st_stall_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      StreamPeer.start(admin, admin, "rekey_stall", settings);
      admin.disableTable(target);
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        puts.add(
            new Put(b(row(T0 + i, i % 3, i)))
                .addColumn(b("m"), b("body"), LONG_AGO + i, b("while the target was away " + i)));
      }
      TestTables.put(source, puts);
      // The endpoint fails, backs off and is shipped the same batch again; the server lives on,
      // and keeps its WALs for the stream, which status warns of once the lag grows.
      String queues = "";
      for (int i = 0; i < 150 && !queues.contains("WARNING"); i++) {
        Thread.sleep(200);
        queues =
            StreamPeer.status(admin, "rekey_stall").queues().stream()
                .map(StreamPeer.Queue::describe)
                .collect(java.util.stream.Collectors.joining("\n"));
      }
      assertThat(queues)
          .contains(
              "WAL entries read since the server started (WARNING: behind; the source's servers keep");
      assertThat(MiniHBase.util().getMiniHBaseCluster().getLiveRegionServerThreads())
          .allSatisfy(t -> assertThat(t.getRegionServer().isAborted()).isFalse());
      admin.enableTable(target);
      List<String> expected = awaitMapped(source, target, settings.mapping());
      assertThat(actual(target)).isEqualTo(expected).hasSize(40);
      StreamPeer.stop(admin, "rekey_stall");
    }
  }
}
