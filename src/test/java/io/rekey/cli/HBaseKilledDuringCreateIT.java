package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.ChildJvm;
import io.rekey.testing.LongTier;
import io.rekey.testing.PseudoCluster;
import io.rekey.testing.Scripts;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * HBase killed ({@code kill -9} of the local HBase's JVM) while a rekey's target table, 2,048
 * regions, is being created: the job stops with exit 1 and one line, within its bounds, instead of
 * waiting without end.
 */
@LongTier
// Its own HBase JVM on free ports, no mini cluster: it runs beside the ITs that share this JVM's.
@Execution(ExecutionMode.CONCURRENT)
class HBaseKilledDuringCreateIT {
  @TempDir Path var;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void theJobStopsWithALineWithinItsBound() throws Exception {
    Map<String, String> env =
        Map.of(
            "REKEY_VAR", var.toString(),
            "REKEY_ZK_PORT", Integer.toString(freePort()),
            "REKEY_MASTER_PORT", Integer.toString(freePort()),
            "REKEY_RS_PORT", Integer.toString(freePort()),
            "REKEY_HBASE_HEAP", "768m",
            "REKEY_DAEMON_OPTS", PseudoCluster.SHORT_LIVED_JVM);
    List<String> hbase = List.of("bash", "jobs/hbase-local.sh");
    try {
      Scripts.Finished start = Scripts.run(env, 240, concat(hbase, "start"));
      assertThat(start.exit()).as(start.output()).isZero();
      Configuration conf = HBaseConfiguration.create();
      conf.addResource(new org.apache.hadoop.fs.Path(var.resolve("conf/hbase-site.xml").toUri()));
      TableName source = TableName.valueOf("killed_src");
      try (Connection c = ConnectionFactory.createConnection(conf);
          Admin admin = c.getAdmin()) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(source)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
                .build());
        try (Table t = c.getTable(source)) {
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            puts.add(
                new Put(Bytes.toBytes(1_767_225_600_000L + i + "_u" + i + "_o" + i))
                    .addColumn(Bytes.toBytes("d"), Bytes.toBytes("q"), Bytes.toBytes("v")));
          }
          t.put(puts);
        }
      }
      List<String> args =
          List.of(
              "rekey",
              "--hbase-conf",
              var.resolve("conf").toString(),
              "--source",
              "killed_src",
              "--target",
              "killed_dst",
              "--source-key",
              "text: ts:long + '_' + user + '_' + order",
              "--target-key",
              "salt(256, user) + user + reverse_ts(ts) + order",
              "--splits-per-bucket",
              "8",
              // The bounds a job on an unhealthy cluster runs with: short here, so the test is.
              "--hbase-set",
              "hbase.client.sync.wait.timeout.msec=20000",
              "--hbase-set",
              "hbase.client.retries.number=2",
              "--hbase-set",
              "hbase.client.pause=200",
              "--hbase-set",
              "hbase.rpc.timeout=5000",
              "--hbase-set",
              "hbase.client.operation.timeout=10000",
              "--hbase-set",
              "zookeeper.recovery.retry=1");
      Process job = ChildJvm.localCli(args, var.resolve("job.log"));
      // The creation of 2,048 regions has started once the master lays out the table.
      Path tableDir = var.resolve("hbase/root/.tmp/data/default/killed_dst");
      Path createdDir = var.resolve("hbase/root/data/default/killed_dst");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      while (System.nanoTime() < deadline
          && job.isAlive()
          && !Files.exists(tableDir)
          && !Files.exists(createdDir)) {
        Thread.sleep(10);
      }
      assertThat(job.isAlive()).as(Files.readString(var.resolve("job.log"))).isTrue();
      long pid = Long.parseLong(Files.readString(var.resolve("run/hbase.pid")).trim());
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      long killed = System.nanoTime();

      assertThat(job.waitFor(150, TimeUnit.SECONDS)).isTrue();
      double seconds = (System.nanoTime() - killed) / 1e9;
      String out = Files.readString(var.resolve("job.log"));
      System.out.printf(
          "job stopped %.1f s after HBase was killed: %s%n",
          seconds,
          out.lines().filter(l -> l.startsWith("error: ")).findFirst().orElse("(no error line)"));
      assertThat(job.exitValue()).as(out).isEqualTo(1);
      assertThat(out).containsAnyOf("stopped answering", "did not finish creating killed_dst");
      assertThat(out).doesNotContain("this is a bug");
      assertThat(seconds).as(out).isLessThan(150);
    } finally {
      Scripts.run(env, 240, concat(hbase, "stop"));
    }
  }

  private static List<String> concat(List<String> a, String b) {
    List<String> all = new ArrayList<>(a);
    all.add(b);
    return all;
  }
}
