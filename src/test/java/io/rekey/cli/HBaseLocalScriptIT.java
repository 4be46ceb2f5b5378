package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.LongTier;
import io.rekey.testing.PseudoCluster;
import io.rekey.testing.Scripts;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code jobs/hbase-local.sh} starts a real standalone HBase that any HBase client can use, keeps
 * its data across a restart, and treats repeated start/stop calls as harmless.
 */
@LongTier
// Its own HBase JVM on free ports, no mini cluster: it runs beside the ITs that share this JVM's.
@Execution(ExecutionMode.CONCURRENT)
class HBaseLocalScriptIT {
  @TempDir Path var;

  @Test
  void startServeRestartStop() throws Exception {
    int port = freePort();
    // Own ports for everything, so a local HBase someone left running does not interfere.
    Map<String, String> env =
        Map.of(
            "REKEY_VAR",
            var.toString(),
            "REKEY_ZK_PORT",
            Integer.toString(port),
            "REKEY_MASTER_PORT",
            Integer.toString(freePort()),
            "REKEY_RS_PORT",
            Integer.toString(freePort()),
            "REKEY_HBASE_HEAP",
            "768m",
            "REKEY_DAEMON_OPTS",
            PseudoCluster.SHORT_LIVED_JVM);
    try {
      Scripts.Finished start = script(env, "start");
      assertThat(start.exit()).as(start.output()).isZero();
      assertThat(start.output())
          .contains("local HBase is up", "hbase.zookeeper.property.clientPort = " + port);
      Path site = var.resolve("conf/hbase-site.xml");
      assertThat(site).exists();

      Scripts.Finished again = script(env, "start");
      assertThat(again.exit()).isZero();
      assertThat(again.output()).contains("already running");

      // Any HBase client can use it through the hbase-site.xml the script wrote.
      Configuration conf = HBaseConfiguration.create();
      conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
      TableName name = TableName.valueOf("local_it");
      try (Connection c = ConnectionFactory.createConnection(conf);
          Admin admin = c.getAdmin()) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
                .build());
        try (Table t = c.getTable(name)) {
          t.put(
              new Put(Bytes.toBytes("r1"))
                  .addColumn(Bytes.toBytes("d"), Bytes.toBytes("q"), Bytes.toBytes("v1")));
        }
      }

      Scripts.Finished status = script(env, "status");
      assertThat(status.exit()).as(status.output()).isZero();
      assertThat(status.output())
          .contains("serves requests", "region servers (1)", "user tables: 1");

      // A port taken by another program is refused with a clear message.
      Scripts.Finished clash =
          script(
              Map.of(
                  "REKEY_VAR",
                  var.resolve("other").toString(),
                  "REKEY_ZK_PORT",
                  Integer.toString(port)),
              "start");
      assertThat(clash.exit()).isEqualTo(1);
      assertThat(clash.output()).contains("port " + port + " on 127.0.0.1 is already taken");

      // Data survives a restart.
      assertThat(script(env, "stop").output()).contains("local HBase stopped");
      assertThat(script(env, "stop").output()).contains("not running; nothing to do");
      Scripts.Finished stopped = script(env, "status");
      assertThat(stopped.exit()).isEqualTo(3);
      assertThat(script(env, "start").exit()).isZero();
      try (Connection c = ConnectionFactory.createConnection(conf);
          Table t = c.getTable(name)) {
        assertThat(
                Bytes.toString(
                    t.get(new Get(Bytes.toBytes("r1")))
                        .getValue(Bytes.toBytes("d"), Bytes.toBytes("q"))))
            .isEqualTo("v1");
      }
    } finally {
      Scripts.Finished stop = script(env, "stop");
      assertThat(stop.exit()).as(stop.output()).isZero();
      assertThat(Files.exists(var.resolve("run/hbase.pid"))).isFalse();
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Scripts.Finished script(Map<String, String> env, String action) throws Exception {
    return Scripts.run(env, 240, List.of("bash", "jobs/hbase-local.sh", action));
  }
}
