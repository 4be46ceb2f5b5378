package io.rekey.bench;

import io.rekey.generate.Message;
import io.rekey.generate.MessageGenerator;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.keys.KeyMapping;
import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.StreamSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The stream's throughput against the peer an operator already has: HBase's own replication of the
 * same table to a same-key table on a second HBase. Each round, for each peer in turn (the order
 * alternating between rounds), the peer is added disabled, a backlog of generated messages is
 * written to the source (its WAL holds them for the peer) and the peer is enabled; the clock runs
 * until the backlog's last row is in the peer's table on the second HBase, which with one region
 * server (one WAL, shipped in order) means every row before it is too. The rekey stream writes its
 * target on the second HBase through the key mapping. Reports cells per second of each, the ratio
 * rekey / HBase per round, and medians of the rounds after the first. Prints JSON.
 *
 * <p>Run by {@code jobs/bench-stream-throughput.sh}, which starts the second local HBase.
 */
public final class StreamThroughputBenchmark {
  static final TableName SOURCE = TableName.valueOf("bench:tput_src");
  static final TableName TARGET = TableName.valueOf("bench:tput_dst");
  static final String HBASE_PEER = "bench_hbase_replication";
  static final String REKEY_PEER = "bench_rekey_stream";
  private static final byte[] M = Bytes.toBytes("m");

  /**
   * With {@code -Dbench.boundKey=true}: the new key bound to the column {@code m:sender} (which the
   * generator fills with the key's sender), so the stream places each row through its key map, a
   * serial peer into a target with NEW_VERSION_BEHAVIOR.
   */
  static final String BOUND_SOURCE_KEY = RekeyBenchmark.SOURCE_KEY + " ; from = m:sender";

  static final String BOUND_TARGET_KEY = "salt(16, from) + from + reverse_ts(ts) + msgid + sender";

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "var/bench/stream-throughput-bench.json");
    String peerZk = System.getProperty("bench.peerZk", "127.0.0.1:2182");
    int rounds = Integer.parseInt(System.getProperty("bench.rounds", "4"));
    int messages = Integer.parseInt(System.getProperty("bench.backlogMessages", "50000"));
    boolean bound = Boolean.getBoolean("bench.boundKey");
    String sourceKey = bound ? BOUND_SOURCE_KEY : RekeyBenchmark.SOURCE_KEY;
    String targetKey = bound ? BOUND_TARGET_KEY : RekeyBenchmark.TARGET_KEY;
    KeyMapping mapping = KeyMapping.parse(sourceKey, targetKey);
    Map<String, Object> report = new LinkedHashMap<>();
    HBaseSettings here = RekeyBenchmark.clusterSettings();
    HBaseSettings there = new HBaseSettings(peerZk, null);
    try (Connection source = HBaseConnections.open(here);
        Connection peer = HBaseConnections.open(there);
        Admin admin = source.getAdmin();
        Admin peerAdmin = peer.getAdmin()) {
      report.put("backlog", messages + " generated messages (about 5 cells each) a round and peer");
      report.put("mapping", sourceKey + "  =>  " + targetKey);
      report.put(
          "peers",
          "HBase's replication (cluster key "
              + peerZk
              + ":/hbase, the same table there, its sink's defaults) and the rekey stream"
              + " (--target-zk "
              + peerZk
              + ", re-keyed into "
              + TARGET
              + " pre-split by its salt); both read by the same replication source defaults");
      List<Map<String, Object>> measured = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        for (Admin a : List.of(admin, peerAdmin)) {
          StreamPeer.stop(a, HBASE_PEER);
          StreamPeer.stop(a, REKEY_PEER);
        }
        fresh(admin, SOURCE, null);
        fresh(peerAdmin, SOURCE, null);
        fresh(peerAdmin, TARGET, saltSplits(16), bound);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("round", round);
        boolean hbaseFirst = round % 2 == 1;
        for (int turn = 0; turn < 2; turn++) {
          boolean hbase = (turn == 0) == hbaseFirst;
          String id = hbase ? HBASE_PEER : REKEY_PEER;
          if (hbase) {
            admin.addReplicationPeer(
                id,
                ReplicationPeerConfig.newBuilder()
                    .setClusterKey(peerZk + ":" + HConstants.DEFAULT_ZOOKEEPER_ZNODE_PARENT)
                    .setReplicateAllUserTables(false)
                    .setTableCFsMap(Map.of(SOURCE, List.of()))
                    .build(),
                false);
          } else {
            StreamPeer.add(
                admin,
                peerAdmin,
                id,
                new StreamSettings(
                    SOURCE,
                    TARGET,
                    sourceKey,
                    targetKey,
                    Map.of(HConstants.ZOOKEEPER_QUORUM, peerZk)),
                false);
          }
          long[] written = backlog(source, SOURCE, messages, round * 10 + turn);
          byte[] last = lastRow(written[1]);
          byte[] lastThere = hbase ? last : mapping.map(last, (f, q) -> LAST_SENDER);
          long t0 = System.nanoTime();
          admin.enableReplicationPeer(id);
          try (Table t = peer.getTable(hbase ? SOURCE : TARGET)) {
            while (t.get(new Get(lastThere)).isEmpty()) {
              Thread.sleep(20);
            }
          }
          double seconds = (System.nanoTime() - t0) / 1e9;
          admin.removeReplicationPeer(id);
          String kind = hbase ? "hbase" : "rekey";
          r.put(kind + "Cells", written[0]);
          r.put(kind + "Seconds", RekeyBenchmark.round(seconds));
          r.put(kind + "CellsPerSecond", RekeyBenchmark.round(written[0] / seconds));
        }
        r.put(
            "rekeyVsHBase",
            RekeyBenchmark.round(
                (double) r.get("rekeyCellsPerSecond") / (double) r.get("hbaseCellsPerSecond")));
        System.err.println("bench stream throughput round " + r);
        measured.add(r);
      }
      SyncBenchmark.medians(
          report, measured, List.of("hbaseCellsPerSecond", "rekeyCellsPerSecond", "rekeyVsHBase"));
      report.put("target", "the stream's throughput >= 0.7x HBase's replication of the same table");
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
    }
    RekeyBenchmark.writeReport(report, out);
  }

  /** The table anew, family {@code m} with replication scope 1 (HBase's peer ships only those). */
  static void fresh(Admin admin, TableName t, byte[][] splits) throws Exception {
    fresh(admin, t, splits, false);
  }

  /**
   * The table anew, its family keeping NEW_VERSION_BEHAVIOR when {@code newVersionBehavior} (a
   * target whose rows move between keys).
   */
  static void fresh(Admin admin, TableName t, byte[][] splits, boolean newVersionBehavior)
      throws Exception {
    try {
      admin.createNamespace(NamespaceDescriptor.create(t.getNamespaceAsString()).build());
    } catch (org.apache.hadoop.hbase.NamespaceExistException e) {
      // there already
    }
    if (admin.tableExists(t)) {
      if (admin.isTableEnabled(t)) { // a run stopped halfway can leave it disabled
        admin.disableTable(t);
      }
      admin.deleteTable(t);
    }
    TableDescriptorBuilder d =
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(M)
                    .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                    .setNewVersionBehavior(newVersionBehavior)
                    .build());
    if (splits == null) {
      admin.createTable(d.build());
    } else {
      admin.createTable(d.build(), splits);
    }
  }

  static byte[][] saltSplits(int buckets) {
    byte[][] out = new byte[buckets - 1][];
    for (int i = 1; i < buckets; i++) {
      out[i - 1] = new byte[] {(byte) i};
    }
    return out;
  }

  /**
   * Writes {@code messages} generated messages into {@code table}, stamped by the server but every
   * tenth a day ago, then one last row after them.
   *
   * @return cells written, and the timestamp field of the last row's key
   */
  static long[] backlog(Connection c, TableName table, int messages, long seed) throws Exception {
    long now = System.currentTimeMillis();
    MessageGenerator generator = new MessageGenerator(seed, 1_000, now, 0, 1);
    long cells = 0;
    try (BufferedMutator m =
        c.getBufferedMutator(
            new BufferedMutatorParams(table).writeBufferSize(RekeyBenchmark.WRITE_BUFFER_BYTES))) {
      for (int i = 0; i < messages; i++) {
        Message message = generator.next();
        Put p = new Put(Bytes.toBytes(message.rowKey()));
        // Stamped by the server as most writers' cells are, every tenth message a day ago (a
        // backfill, which the stream reads back from both tables: HiddenCells).
        long stamp = i % 10 == 9 ? now - 86_400_000L : HConstants.LATEST_TIMESTAMP;
        for (Message.GeneratedCell cell : message.cells()) {
          p.addColumn(M, Bytes.toBytes(cell.qualifier()), stamp, cell.value());
          cells++;
        }
        m.mutate(p);
      }
      m.flush();
    }
    // Written alone after the backlog: its server logs it after every row above.
    try (Table t = c.getTable(table)) {
      t.put(
          new Put(lastRow(now))
              .addColumn(M, Bytes.toBytes("last"), now, Bytes.toBytes(true))
              .addColumn(M, Bytes.toBytes("sender"), now, LAST_SENDER));
    }
    return new long[] {cells + 1, now};
  }

  /** The last row's sender, in its key and in {@code m:sender}. */
  private static final byte[] LAST_SENDER = Bytes.toBytes("zz");

  /** The row written after a backlog stamped {@code now}: once it has arrived, so has the rest. */
  static byte[] lastRow(long now) {
    return Bytes.toBytes(Long.toString(now) + "_zz_last");
  }
}
