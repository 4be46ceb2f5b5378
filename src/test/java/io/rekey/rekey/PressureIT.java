package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.actual;
import static io.rekey.rekey.RekeyIT.b;
import static io.rekey.rekey.RekeyIT.connection;
import static io.rekey.rekey.RekeyIT.expected;
import static io.rekey.rekey.SyncIT.BOUND_SOURCE;
import static io.rekey.rekey.SyncIT.BY_SENDER;
import static io.rekey.rekey.SyncIT.LAG_MILLIS;
import static io.rekey.rekey.SyncIT.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionValues;
import io.rekey.pacing.Throttle;
import io.rekey.report.RekeyText;
import io.rekey.report.SyncText;
import io.rekey.spark.JobContext;
import io.rekey.testing.BusyRegion;
import io.rekey.testing.LongTier;
import io.rekey.testing.SparkLocal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster that pushes back, for real: a region server answering RegionTooBusyException to a
 * sync's Puts (from a region observer, across the RPC), and a target region whose store files are
 * near {@code hbase.hstore.blockingStoreFiles} when a bulk load comes. The jobs slow down or wait,
 * count it, and the target still holds every source cell once, compared cell by cell with a scan.
 */
@LongTier
class PressureIT extends OnMiniCluster {
  private static final String BLOCKING = "hbase.hstore.blockingStoreFiles";

  @AfterEach
  void quiet() {
    BusyRegion.answers.set(0);
  }

  @Test
  void aSyncWhoseTargetAnswersBusyBacksOffCountsItAndStillWritesEveryCellOnce() throws Exception {
    TableName source = SyncIT.messages("pr_busy_src", 1);
    OptionValues v = values("pr_busy_src", "pr_busy_dst", BOUND_SOURCE, BY_SENDER);
    SyncIT.rekey(v);
    TableName target = TableName.valueOf("pr_busy_dst");
    try (Admin admin = connection.getAdmin()) {
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(target))
              .setCoprocessor(BusyRegion.class.getName())
              .build());
    }
    long now = System.currentTimeMillis();
    List<Put> later = new ArrayList<>();
    for (int i = 100; i < 400; i++) {
      later.add(
          new Put(b((now - i) + "_o" + i))
              .addColumn(b("m"), b("sender"), now - i, b("user" + (i % 7)))
              .addColumn(b("m"), b("body"), now - i, b("later " + i)));
    }
    try (Table t = connection.getTable(source)) {
      t.put(later);
    }
    Thread.sleep(LAG_MILLIS + 300);
    // More refusals than the client's own attempts per batch: the writers must back off and send
    // again themselves.
    BusyRegion.answered.set(0);
    BusyRegion.answers.set(10);

    SyncResult r = SyncIT.sync(v.with("write", "puts"));

    assertThat(BusyRegion.answered.get()).isEqualTo(10);
    assertThat(r.pressure().busyAnswers()).isPositive();
    assertThat(r.pressure().backoffSeconds()).isPositive();
    assertThat(r.windows().get(0).pressure().busyAnswers()).isEqualTo(r.pressure().busyAnswers());
    assertThat(SyncText.sync(r)).contains("held back", "answered busy to");
    assertThat(r.totals().addsUp()).isTrue();
    assertThat(actual(target))
        .containsExactlyElementsOf(expected(source, KeyMapping.parse(BOUND_SOURCE, BY_SENDER)));
  }

  @Test
  void aBulkLoadIntoARegionNearItsBlockingStoreFileCountLoadsInStepsBetweenCompactions()
      throws Exception {
    TableName source = SyncIT.messages("pr_load_src", 1);
    TableName target = nearlyFullTarget("pr_load_dst", true);
    StoreFileWatch watch = new StoreFileWatch(target);
    RekeyResult r;
    try {
      r = rekey("pr_load_src", "pr_load_dst", 600);
    } finally {
      watch.stop();
    }
    // Without pacing, this many files into one region pass the limit of 4.
    assertThat(r.files()).isGreaterThan(4);
    assertThat(r.pressure().storeFileWaits()).isPositive();
    assertThat(r.pressure().loadBatches()).isGreaterThan(1);
    assertThat(watch.most()).isBetween(1, 3);
    assertThat(RekeyText.result(r)).contains("held back", "waited");
    assertThat(r.stored().stored()).isEqualTo(r.cellsWritten());
    assertThat(r.verify().matches()).isTrue();
    assertThat(actual(target))
        .containsExactlyElementsOf(expected(source, KeyMapping.parse(BOUND_SOURCE, BY_SENDER)));
  }

  @Test
  void aLoadThatCompactionsCannotMakeRoomForStopsInOneLineAndTheSameCommandLoadsTheRest()
      throws Exception {
    TableName source = SyncIT.messages("pr_full_src", 1);
    TableName target = nearlyFullTarget("pr_full_dst", false);
    StoreFileWatch watch = new StoreFileWatch(target);
    try {
      assertThatThrownBy(() -> rekey("pr_full_src", "pr_full_dst", 3))
          .isInstanceOf(RekeyException.class)
          .hasMessageContaining("of pr_full_dst still has 3 store files after 3 s")
          .hasMessageContaining("hbase.hstore.blockingStoreFiles 4")
          .hasMessageContaining("rerun the same command, which loads only the rest");
    } finally {
      watch.stop();
    }
    assertThat(watch.most()).isEqualTo(3);
    try (Admin admin = connection.getAdmin()) {
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(target))
              .setCompactionEnabled(true)
              .build());
    }
    RekeyResult again = rekey("pr_full_src", "pr_full_dst", 600);
    assertThat(again.resumed()).isTrue();
    assertThat(again.stored().stored()).isEqualTo(again.cellsWritten());
    assertThat(again.verify().matches()).isTrue();
    assertThat(actual(target))
        .containsExactlyElementsOf(expected(source, KeyMapping.parse(BOUND_SOURCE, BY_SENDER)));
  }

  /**
   * An empty one-region target whose stores block at 4 files, compacting 2 at a time when allowed;
   * its family has the NEW_VERSION_BEHAVIOR a key bound to a column needs (rekey refuses a target
   * without it).
   */
  private static TableName nearlyFullTarget(String name, boolean compactions) throws Exception {
    TableName target = TableName.valueOf(name);
    try (Admin admin = connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(target)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(RekeyIT.b("m"))
                      .setNewVersionBehavior(true)
                      .build())
              .setValue(BLOCKING, "4")
              .setValue("hbase.hstore.compaction.min", "2")
              .setCompactionEnabled(compactions)
              .build());
    }
    return target;
  }

  private static RekeyResult rekey(String source, String target, long storeFileWaitSeconds) {
    RekeyOptions options =
        RekeyOptions.from(
            values(source, target, BOUND_SOURCE, BY_SENDER, "tasks-per-region", "8")
                .validate(RekeyOptions.declared()));
    Configuration conf = new Configuration(RekeyIT.conf);
    new Throttle(0, 0, 0, 0, false, storeFileWaitSeconds).properties().forEach(conf::set);
    JobContext job = SparkLocal.job(connection, conf);
    return new RekeyJob(job, options, RekeyJob.plan(job, options)).execute();
  }

  /** The most store files any region of a table held, sampled every 50 ms. */
  private static final class StoreFileWatch {
    private final AtomicInteger most = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    StoreFileWatch(TableName table) {
      thread =
          new Thread(
              () -> {
                try (Admin admin = connection.getAdmin()) {
                  while (running.get()) {
                    for (ServerName s : admin.getRegionServers()) {
                      for (RegionMetrics m : admin.getRegionMetrics(s, table)) {
                        most.accumulateAndGet(m.getStoreFileCount(), Math::max);
                      }
                    }
                    Thread.sleep(50);
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              "store-file-watch");
      thread.setDaemon(true);
      thread.start();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join();
    }

    int most() {
      return most.get();
    }
  }
}
