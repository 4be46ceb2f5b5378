package io.rekey.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.cli.ExitCode;
import io.rekey.common.RekeyException;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
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

  private static TableName table(String name) throws Exception {
    TableName t = TableName.valueOf(name);
    TestTables.create(
        t, ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setMaxVersions(5).build());
    return t;
  }

  private static String row(long ts, int user, int order) {
    return ts + "_user" + user + "_o" + order;
  }

  /** The source's visible cells under their mapped rows, sorted. */
  static List<String> expected(TableName source, KeyMapping mapping) throws Exception {
    List<String> out = new ArrayList<>();
    try (Table t = MiniHBase.util().getConnection().getTable(source);
        ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
      for (Result r : s) {
        byte[] mapped;
        try {
          mapped = mapping.map(r.getRow(), (f, q) -> null);
        } catch (KeyReject e) {
          continue;
        }
        for (Cell c : r.rawCells()) {
          out.add(TestTables.line(mapped, c));
        }
      }
    }
    out.sort(null);
    return out;
  }

  static List<String> actual(TableName target) throws Exception {
    List<String> cells = TestTables.cells(target);
    cells.sort(null);
    return cells;
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

  @Test
  void everyEditWhateverItsTimestampReachesTheTargetUnderItsNewKey() throws Exception {
    TableName source = table("st_src");
    TableName target = table("st_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    KeyMapping mapping = settings.mapping();
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      CliRun started =
          CliRun.of(
              "stream",
              "start",
              "--source",
              "st_src",
              "--target",
              "st_dst",
              "--source-key",
              SOURCE_KEY,
              "--target-key",
              TARGET_KEY,
              "--zk",
              MiniHBase.zkQuorum());
      assertThat(started.exit()).as(started.err()).isEqualTo(ExitCode.OK);
      assertThat(StreamPeer.status(admin, "rekey_st_dst").enabled()).isTrue();
      assertThatThrownBy(() -> StreamPeer.start(admin, "rekey_st_dst", settings))
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

      CliRun status =
          CliRun.of("stream", "status", "--target", "st_dst", "--zk", MiniHBase.zkQuorum());
      assertThat(status.exit()).isEqualTo(ExitCode.OK);
      assertThat(status.out())
          .contains("stream status: st_src -> st_dst (replication peer rekey_st_dst, enabled)");
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
  void aStreamIsRefusedInOneLineForAMissingTableOrAKeyBoundToAColumn() throws Exception {
    table("st_ref_src");
    CliRun missing =
        CliRun.of(
            "stream",
            "start",
            "--source",
            "st_ref_src",
            "--target",
            "st_nosuch",
            "--source-key",
            SOURCE_KEY,
            "--target-key",
            TARGET_KEY,
            "--zk",
            MiniHBase.zkQuorum());
    assertThat(missing.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(missing.err()).contains("the table st_nosuch does not exist");
    CliRun bound =
        CliRun.of(
            "stream",
            "start",
            "--source",
            "st_ref_src",
            "--target",
            "st_ref_src",
            "--source-key",
            SOURCE_KEY + " ; s = m:sender",
            "--target-key",
            "s + reverse_ts(ts)",
            "--zk",
            MiniHBase.zkQuorum());
    assertThat(bound.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(bound.err()).contains("cannot be streamed").contains("binds columns");
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      assertThat(admin.listReplicationPeers()).isEmpty();
    }
  }

  @Test
  void anEditAppliedTwiceLeavesTheTargetAsOnce() throws Exception {
    TableName once = table("st_once");
    TableName twice = table("st_twice");
    EditMapper mapper = new EditMapper(KeyMapping.parse(SOURCE_KEY, TARGET_KEY));
    byte[] r = b(row(T0, 1, 1));
    List<Cell> edit = new ArrayList<>();
    Put put =
        new Put(r).addColumn(b("m"), b("body"), T0, b("v1")).addColumn(b("m"), b("x"), T0, b("x"));
    put.getFamilyCellMap().values().forEach(edit::addAll);
    Delete delete = new Delete(r).addColumn(b("m"), b("x"), T0);
    delete.getFamilyCellMap().values().forEach(edit::addAll);
    List<RowMutations> mapped = mapper.map(edit).mutations();
    try (Table t1 = MiniHBase.util().getConnection().getTable(once);
        Table t2 = MiniHBase.util().getConnection().getTable(twice)) {
      t1.batch(mapped, new Object[mapped.size()]);
      t2.batch(mapped, new Object[mapped.size()]);
      t2.batch(mapped, new Object[mapped.size()]);
    }
    assertThat(actual(twice)).isEqualTo(actual(once)).hasSize(1);
    assertThat(actual(once).get(0)).contains("m:body/" + T0 + "=v1");
    assertThat(
            CellUtil.cloneRow(
                mapped.get(0).getMutations().get(0).getFamilyCellMap().get(b("m")).get(0)))
        .isEqualTo(mapped.get(0).getRow());
  }

  @Test
  void aTargetThatRefusesWritesStallsTheStreamWhichCatchesUpWhenItIsBack() throws Exception {
    TableName source = table("st_stall_src");
    TableName target = table("st_stall_dst");
    StreamSettings settings = new StreamSettings(source, target, SOURCE_KEY, TARGET_KEY, Map.of());
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      StreamPeer.start(admin, "rekey_stall", settings);
      admin.disableTable(target);
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        puts.add(
            new Put(b(row(T0 + i, i % 3, i)))
                .addColumn(b("m"), b("body"), LONG_AGO + i, b("while the target was away " + i)));
      }
      TestTables.put(source, puts);
      // The endpoint fails, backs off and is shipped the same batch again; the server lives on.
      Thread.sleep(4_000);
      assertThat(MiniHBase.util().getMiniHBaseCluster().getLiveRegionServerThreads())
          .allSatisfy(t -> assertThat(t.getRegionServer().isAborted()).isFalse());
      admin.enableTable(target);
      List<String> expected = awaitMapped(source, target, settings.mapping());
      assertThat(actual(target)).isEqualTo(expected).hasSize(40);
      StreamPeer.stop(admin, "rekey_stall");
    }
  }
}
