package io.rekey.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.hbase.HBaseConnections;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A live scan in pieces ({@link SourceReader#liveInPieces}) on a table whose second region holds
 * nearly all of it, with rows in store files and in the memstore: the big region is read by several
 * scans of about equal size, and every row, flushed or not, arrives exactly once, whether the cuts
 * come from the region's store files or, when those cannot be read, from its edge rows.
 */
@ExtendWith(MiniHBase.class)
class LivePiecesIT {
  private static final byte[] M = Bytes.toBytes("m");
  private static final int SMALL = 100;
  private static final int BIG = 4_000;
  private static final int UNFLUSHED = 300;

  private static Connection connection;
  private static Configuration conf;
  private static TableName table;

  @BeforeAll
  static void skewedTable() throws Exception {
    connection = HBaseConnections.open(MiniHBase.settings());
    conf = MiniHBase.settings().toConfiguration();
    table = MiniHBase.uniqueTable("live_pieces");
    try (Admin admin = connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(M))
              .build(),
          new byte[][] {Bytes.toBytes("n")});
      put(0, SMALL, "a");
      // 4,000 rows of 1 KiB: the region servers report sizes in whole megabytes.
      put(0, BIG, "n");
      admin.flush(table);
      put(BIG, BIG + UNFLUSHED, "n");
      awaitReportedSize(admin);
    }
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
  }

  @Test
  void theBigRegionIsReadInEvenPiecesAndEveryRowOnce() {
    List<Integer> sizes = rowsPerPiece(conf, new Scan());
    // local[2,4]: four scans wanted, one for the small region and three for the big one.
    assertThat(sizes).hasSize(4);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(SMALL + BIG + UNFLUSHED);
    assertThat(sizes.get(0)).isEqualTo(SMALL);
    // Cut at the store file's index: no piece of the big region holds most of it.
    for (int piece : sizes.subList(1, sizes.size())) {
      assertThat(piece).isBetween(BIG / 6, BIG / 2);
    }
    assertThat(rowKeys(conf, new Scan())).hasSize(SMALL + BIG + UNFLUSHED);
  }

  @Test
  void whenTheFilesCannotBeReadTheEdgeRowsCutTheRegionAndEveryRowArrivesOnce() {
    Configuration noFiles = new Configuration(conf);
    noFiles.set("hbase.rootdir", conf.get("hbase.rootdir") + "-not-there");
    List<Integer> sizes = rowsPerPiece(noFiles, new Scan());
    assertThat(sizes).hasSize(4);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(SMALL + BIG + UNFLUSHED);
    assertThat(rowKeys(noFiles, new Scan())).hasSize(SMALL + BIG + UNFLUSHED);
  }

  @Test
  void aScanBoundedByRowsKeepsItsBoundsInEveryPiece() {
    Scan bounded =
        new Scan().withStartRow(Bytes.toBytes("n001000")).withStopRow(Bytes.toBytes("n003000"));
    TreeSet<String> keys = rowKeys(conf, bounded);
    assertThat(keys).hasSize(2_000);
    assertThat(keys.first()).isEqualTo("n001000");
    assertThat(keys.last()).isEqualTo("n002999");
  }

  private static List<Integer> rowsPerPiece(Configuration c, Scan scan) {
    return read(c, scan)
        .mapPartitions(
            rows -> {
              int n = 0;
              while (rows.hasNext()) {
                rows.next();
                n++;
              }
              return List.of(n).iterator();
            })
        .collect();
  }

  /** The rows read, failing on a row read twice. */
  private static TreeSet<String> rowKeys(Configuration c, Scan scan) {
    List<String> keys = read(c, scan).map(r -> Bytes.toString(r._1().copyBytes())).collect();
    TreeSet<String> distinct = new TreeSet<>(keys);
    assertThat(distinct).hasSameSizeAs(keys);
    return distinct;
  }

  private static JavaPairRDD<ImmutableBytesWritable, Result> read(Configuration c, Scan scan) {
    return SourceReader.liveInPieces(SparkLocal.context(), c, table, scan);
  }

  private static void put(int from, int to, String prefix) throws Exception {
    byte[] value = new byte[1024];
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      puts.add(new Put(Bytes.toBytes(String.format("%s%06d", prefix, i))).addColumn(M, M, value));
    }
    try (Table t = connection.getTable(table)) {
      t.put(puts);
    }
  }

  /** Until the region servers report the big region's flushed megabytes, as splits read them. */
  private static void awaitReportedSize(Admin admin) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
          if (m.getStoreFileSize().get(Size.Unit.MEGABYTE) >= 1) {
            return;
          }
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the region server never reported the flushed region's size");
  }
}
