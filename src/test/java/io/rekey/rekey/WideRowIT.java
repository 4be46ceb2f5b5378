package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.b;
import static io.rekey.rekey.RekeyIT.connection;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.run.RunFiles;
import io.rekey.testing.SparkLocal;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/**
 * Issue 52, item 6: {@code rekey repair} and the sync's history reads take a wide row a piece of
 * {@code --batch} cells at a time, as the copy and verify do. The region servers enforce it: the
 * tables carry a {@code hbase.table.max.rowsize} below the wide row's size (HBase refuses a read
 * that takes more than that of one row in one call, as it refuses a row of over a gigabyte by
 * default), so a read that fetches the row whole fails, and one in pieces passes.
 */
class WideRowIT extends OnMiniCluster {
  private static final int WIDE_CELLS = 2_000;
  private static final String VALUE = "x".repeat(400);
  private static final long MAX_ROW_BYTES = 256 * 1024;
  private static final String BATCH = "100";

  @Test
  void aRepairFixesAWideRowAPartAtATimeAndCountsItOnce() throws Exception {
    TableName source = SyncIT.orders("wide_rp_src", 20);
    long t0 = System.currentTimeMillis() - 3_000_000;
    String wide = t0 + "_user9_o999";
    put(source, wide, 0, WIDE_CELLS, t0);
    OptionValues v =
        SyncIT.values(
            "wide_rp_src", "wide_rp_dst", SyncIT.SOURCE_KEY, SyncIT.SALTED, "batch", BATCH);
    SyncIT.rekey(v);
    TableName target = TableName.valueOf("wide_rp_dst");
    KeyMapping mapping = RekeyOptions.mapping(SyncIT.SOURCE_KEY, SyncIT.SALTED);
    byte[] wideTarget = mapping.map(b(wide), (f, q) -> null);
    // The source gains 250 cells stamped in the past (the copy never saw them), the target has 5
    // other values at the same versions and 3 cells the source never had.
    put(source, wide, WIDE_CELLS, WIDE_CELLS + 250, t0);
    try (Table t = connection.getTable(target)) {
      Put changed = new Put(wideTarget);
      for (int i = 0; i < 5; i++) {
        changed.addColumn(b("m"), b("q" + i), t0, b("changed"));
      }
      for (int i = 0; i < 3; i++) {
        changed.addColumn(b("m"), b("extra" + i), t0, b("extra"));
      }
      t.put(changed);
    }
    limitRowSize(source, target);

    RepairResult r = RepairIT.repair(v);
    assertThat(r.rowsDifferent()).isEqualTo(1);
    assertThat(r.rowsMissing() + r.rowsExtra()).isZero();
    assertThat(r.cellsPut()).isEqualTo(255);
    assertThat(r.cellsDeleted()).isEqualTo(3);
    assertThat(r.cellsWritten()).isEqualTo(258);
    assertThat(r.examples()).hasSize(1);
    assertThat(r.verify().matches()).isTrue();
    RepairResult again = RepairIT.repair(v);
    assertThat(again.cellsWritten()).isZero();
    assertThat(again.rowsDifferent() + again.rowsMissing() + again.rowsExtra()).isZero();
    assertThat(verify("wide_rp_src", "wide_rp_dst", mapping).matches()).isTrue();

    unlimitRowSize(source, target);
    assertThat(RekeyIT.actual(target)).isEqualTo(sorted(RekeyIT.expected(source, mapping)));
  }

  @Test
  void aSyncMovesAWideRowWhoseBoundColumnChangedReadingItsHistoryInPieces() throws Exception {
    TableName source = SyncIT.messages("wide_sync_src", 3);
    long t0 = System.currentTimeMillis() - 3_000_000;
    String wide = t0 + "_o999";
    try (Table t = connection.getTable(source)) {
      t.put(new Put(b(wide)).addColumn(b("m"), b("sender"), t0, b("user1")));
    }
    put(source, wide, 0, WIDE_CELLS, t0);
    OptionValues v =
        SyncIT.values(
            "wide_sync_src",
            "wide_sync_dst",
            SyncIT.BOUND_SOURCE,
            SyncIT.BY_SENDER,
            "batch",
            BATCH);
    SyncIT.rekey(v);
    TableName target = TableName.valueOf("wide_sync_dst");
    limitRowSize(source, target);
    try (Table t = connection.getTable(source)) {
      t.put(new Put(b(wide)).addColumn(b("m"), b("sender"), System.currentTimeMillis(), b("zed")));
    }
    Thread.sleep(SyncIT.LAG_MILLIS + 300);

    SyncResult r = SyncIT.sync(v);
    assertThat(r.totals().rowsRead()).isEqualTo(1);
    assertThat(r.totals().rowsMoved()).isEqualTo(1);
    // Every stored cell of the row under its new key (both senders), a retiring marker for each
    // under the old one.
    assertThat(r.totals().cellsMoved()).isEqualTo(WIDE_CELLS + 2);
    assertThat(r.totals().cellsRetired()).isEqualTo(WIDE_CELLS + 2);
    assertThat(r.totals().addsUp()).isTrue();

    unlimitRowSize(source, target);
    KeyMapping mapping = RekeyOptions.mapping(SyncIT.BOUND_SOURCE, SyncIT.BY_SENDER);
    assertThat(RekeyIT.actual(target)).isEqualTo(sorted(RekeyIT.expected(source, mapping)));
    assertThat(RekeyIT.actual(target)).anyMatch(c -> c.startsWith("zed") && c.contains("m:q7/"));
  }

  /** Cells {@code m:q<from>} to {@code m:q<to - 1>} of one row, each of {@code VALUE}. */
  private static void put(TableName table, String row, int from, int to, long ts) throws Exception {
    try (Table t = connection.getTable(table)) {
      Put p = new Put(b(row));
      for (int i = from; i < to; i++) {
        p.addColumn(b("m"), b("q" + i), ts, b(VALUE));
      }
      t.put(p);
    }
  }

  private static void limitRowSize(TableName... tables) throws Exception {
    for (TableName t : tables) {
      setMaxRowSize(t, String.valueOf(MAX_ROW_BYTES));
      try (Table table = connection.getTable(t)) {
        // The limit is in force: a read that takes the whole row in one call is refused.
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> {
                  for (Result r :
                      table.getScanner(
                          new org.apache.hadoop.hbase.client.Scan().readAllVersions())) {
                    r.size();
                  }
                })
            .hasStackTraceContaining("RowTooBigException");
      }
    }
  }

  private static void unlimitRowSize(TableName... tables) throws Exception {
    for (TableName t : tables) {
      setMaxRowSize(t, null);
    }
  }

  private static void setMaxRowSize(TableName table, String bytes) throws Exception {
    try (Admin admin = connection.getAdmin()) {
      TableDescriptorBuilder d = TableDescriptorBuilder.newBuilder(admin.getDescriptor(table));
      if (bytes == null) {
        d.removeValue(b(HConstants.TABLE_MAX_ROWSIZE_KEY));
      } else {
        d.setValue(HConstants.TABLE_MAX_ROWSIZE_KEY, bytes);
      }
      admin.modifyTable(d.build());
    }
  }

  private static io.rekey.verify.VerifyResult verify(
      String source, String target, KeyMapping mapping) {
    return VerifyJob.tables(
        SparkLocal.job(connection, RekeyIT.conf),
        new VerifyOptions(
            TableName.valueOf(source),
            TableName.valueOf(target),
            mapping,
            ReadMode.SNAPSHOT,
            Integer.parseInt(BATCH),
            false,
            null,
            SyncIT.STATE,
            null,
            false),
        RunFiles.staging(RekeyIT.conf, null));
  }

  private static List<String> sorted(List<String> lines) {
    List<String> out = new ArrayList<>(lines);
    out.sort(null);
    return out;
  }
}
