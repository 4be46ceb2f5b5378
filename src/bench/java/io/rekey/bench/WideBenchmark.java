package io.rekey.bench;

import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.TableAdmin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Wide and big: one row of 1,000,000 qualifiers (among 1,000 ordinary messages) and a table of 20
 * MB cells, each re-keyed, audited and indexed in a JVM with the heap the jobs get by default;
 * times and peak heap per job. Both tables are generated once, with the message tables' key layout,
 * and kept.
 *
 * <p>Run by {@code jobs/bench-all.sh} (or alone: {@code jobs/bench-wide.sh}).
 */
public final class WideBenchmark {
  static final String WIDE = "bench:wide_row";
  static final String BIG = "bench:big_cells";
  static final int WIDE_QUALIFIERS = 1_000_000;
  static final int BIG_CELL_BYTES = 20 << 20;
  static final int BIG_ROWS = 12;
  static final byte[] M = Bytes.toBytes("m");

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    HBaseSettings settings = RekeyBenchmark.clusterSettings();
    Configuration conf = settings.toConfiguration();
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      generateWide(conf, connection);
      generateBig(conf, connection);
      JavaSparkContext sc = RekeyBenchmark.spark("wide-bench");
      report.put("sparkMaster", sc.master());
      report.put("maxHeapMiB", Runtime.getRuntime().maxMemory() >> 20);
      report.put(
          "memory",
          "the bench JVM's -Xmx is what jobs/hbase-rekey.sh gives a local job by default"
              + " (spark.driver.memory unset): driver and executors share it");
      for (String table : List.of(WIDE, BIG)) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("cells", RekeyBenchmark.countCells(connection, TableName.valueOf(table)));
        Rounds rounds =
            new Rounds(0, Integer.getInteger("bench.rounds", 1))
                .run(
                    "wide " + table,
                    List.of(
                        new Rounds.Method(
                            "rekey",
                            r ->
                                RekeyBenchmark.rekey(
                                    sc, connection, conf, table, "bench:w_rekey", r)),
                        new Rounds.Method(
                            "audit", r -> AuditBenchmark.audit(sc, connection, conf, table, r)),
                        new Rounds.Method(
                            "indexBuild",
                            r ->
                                IndexBenchmark.build(
                                    sc,
                                    connection,
                                    conf,
                                    IndexBenchmark.definition(table, "bench:w_ix"),
                                    r))),
                    () -> {
                      RekeyBenchmark.fresh(connection, "bench:w_rekey", null, null);
                      RekeyBenchmark.fresh(connection, "bench:w_ix", null, null);
                      IndexBenchmark.forgetState(connection, "bench:w_ix");
                    });
        for (String m : List.of("rekey", "audit", "indexBuild")) {
          t.put(m, rounds.summary(m));
        }
        report.put(table, t);
      }
      RekeyBenchmark.fresh(connection, "bench:w_rekey", null, null);
      RekeyBenchmark.fresh(connection, "bench:w_ix", null, null);
      report.put("outOfMemory", false);
      report.put("processPeakRssMiB", RekeyBenchmark.peakRssMiB());
      sc.stop();
    }
    RekeyBenchmark.writeReport(report, out);
  }

  /** A key in the message tables' layout: time, sender, message id. */
  static byte[] key(long ts, String sender, String id) {
    return Bytes.toBytes(ts + "_" + sender + "_" + id);
  }

  /** The ordinary columns of a message, as the generator writes them. */
  static Put message(byte[] row, long ts, String sender, int i) {
    return new Put(row)
        .addColumn(M, Bytes.toBytes("sender"), ts, Bytes.toBytes(sender))
        .addColumn(M, Bytes.toBytes("recipient"), ts, Bytes.toBytes("user01234"))
        .addColumn(M, Bytes.toBytes("subject"), ts, Bytes.toBytes("subject " + i))
        .addColumn(M, Bytes.toBytes("read"), ts, Bytes.toBytes("false"));
  }

  /** One row of {@link #WIDE_QUALIFIERS} qualifiers among 1,000 messages, unless there already. */
  static void generateWide(Configuration conf, Connection connection) throws IOException {
    TableName t = TableName.valueOf(WIDE);
    if (!create(connection, t, null)) {
      return;
    }
    long ts0 = 1_767_225_600_000L;
    try (BufferedMutator m = connection.getBufferedMutator(t)) {
      for (int i = 0; i < 1000; i++) {
        String sender = String.format("user%05d", i % 37);
        long ts = ts0 + i * 1000L;
        m.mutate(message(key(ts, sender, String.format("%016x", i)), ts, sender, i));
      }
      long ts = ts0 + 500_500L;
      byte[] row = key(ts, "user00001", "wide000000000000");
      m.mutate(message(row, ts, "user00001", -1));
      // In Puts of 10,000 cells: one Put of a million would be one 40 MB request.
      Put p = new Put(row);
      for (int q = 0; q < WIDE_QUALIFIERS; q++) {
        p.addColumn(M, Bytes.toBytes(String.format("q%07d", q)), ts, Bytes.toBytes(q));
        if (p.size() == 10_000) {
          m.mutate(p);
          p = new Put(row);
        }
      }
      if (!p.isEmpty()) {
        m.mutate(p);
      }
    }
    flush(connection, t);
  }

  /**
   * {@link #BIG_ROWS} messages whose body is a 20 MB cell. HBase refuses cells over 10 MB by
   * default, on the client and the region server: a user who keeps 20 MB cells has raised both, as
   * this table does (its descriptor) and its writer (its connection).
   */
  static void generateBig(Configuration conf, Connection connection) throws IOException {
    TableName t = TableName.valueOf(BIG);
    if (!create(connection, t, Long.toString(64L << 20))) {
      return;
    }
    Configuration writer = new Configuration(conf);
    writer.setLong("hbase.client.keyvalue.maxsize", 0);
    long ts0 = 1_767_225_600_000L;
    Random random = new Random(7);
    try (Connection c = ConnectionFactory.createConnection(writer);
        BufferedMutator m = c.getBufferedMutator(t)) {
      for (int i = 0; i < BIG_ROWS; i++) {
        String sender = String.format("user%05d", i % 3);
        long ts = ts0 + i * 1000L;
        byte[] body = new byte[BIG_CELL_BYTES];
        random.nextBytes(body);
        m.mutate(
            message(key(ts, sender, String.format("%016x", i)), ts, sender, i)
                .addColumn(M, Bytes.toBytes("body"), ts, body));
        m.flush();
      }
    }
    flush(connection, t);
  }

  /** Creates the table unless it holds rows already; true when it must be filled. */
  private static boolean create(Connection connection, TableName t, String maxCellSize)
      throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(t) && RekeyBenchmark.countCells(connection, t) > 0) {
        return false;
      }
      RekeyBenchmark.fresh(connection, t.getNameAsString(), null, null);
      TableDescriptorBuilder d =
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(M).setMaxVersions(3).build());
      if (maxCellSize != null) {
        d.setValue("hbase.server.keyvalue.maxsize", maxCellSize);
      }
      new TableAdmin(connection).create(d.build(), List.of());
      return true;
    }
  }

  private static void flush(Connection connection, TableName t) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      admin.flush(t);
    }
  }

  private WideBenchmark() {}
}
