package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.actual;
import static io.rekey.rekey.RekeyIT.connection;
import static io.rekey.rekey.RekeyIT.expected;
import static io.rekey.rekey.RekeyIT.messages;
import static io.rekey.rekey.RekeyIT.options;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.spark.Faults;
import io.rekey.testing.InJvmFaults;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import java.util.List;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.jupiter.api.Test;

/**
 * A region server that holds half the target's regions aborts just as the bulk load starts, and a
 * new one is started: the load waits out the reassignment (or a rerun finishes it), and every cell
 * is stored once.
 */
@LongTier
class RegionServerRestartIT extends OnMiniCluster {

  @Test
  void aRegionServerAbortedAtTheStartOfTheLoad() throws Exception {
    TableName source = messages("rs_src", 400);
    TableName target = TableName.valueOf("rs_dst");
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    JVMClusterUtil.RegionServerThread second = cluster.startRegionServer();
    second.waitForServerOnline();
    ServerName secondName = second.getRegionServer().getServerName();
    try (Admin admin = connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(target)
              .setColumnFamily(RekeyIT.richFamily())
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("m"))
              .build(),
          new byte[][] {{1}});
      List<RegionInfo> regions = admin.getRegions(target);
      admin.move(regions.get(1).getEncodedNameAsBytes(), secondName);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
    }
    RekeyOptions options =
        options("rs_src", "rs_dst", "salt(2, user) + user + reverse_ts(ts) + order");
    Faults restartDuringTheLoad =
        InJvmFaults.of(
            (point, partition, attempt) -> {
              if (point == Faults.Point.BEFORE_LOAD && attempt == 1) {
                // The server holding region two dies; a new one comes up while the load runs.
                second.getRegionServer().abort("injected: region server restart during the load");
                second.join();
                cluster.startRegionServer().waitForServerOnline();
              }
            });
    RekeyJob job = RekeyIT.job(options, restartDuringTheLoad);
    RunManifest written = job.run();

    RunManifest loaded;
    try {
      loaded = job.commit(written);
    } catch (io.rekey.common.RekeyException stoppedClearly) {
      // Stopping with a clear line is allowed too; the same command then completes.
      assertThat(stoppedClearly.getMessage()).contains("rerun the same command");
      InJvmFaults.clear();
      loaded = job.commit(written);
    }
    InJvmFaults.clear();
    MiniHBase.util().waitTableAvailable(target, 60_000);
    assertThat(loaded.stored().proven()).isTrue();
    assertThat(loaded.stored().stored()).isEqualTo(written.cellsWritten());
    assertThat(job.verify(loaded).matches()).isTrue();
    assertThat(actual(target)).isEqualTo(expected(source, options.mapping()));
  }
}
