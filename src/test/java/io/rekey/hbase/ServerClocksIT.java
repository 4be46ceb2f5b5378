package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.MiniHBase;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A region server's clock read from its reports to the master, on the mini cluster: with HBase's
 * clock moved 6 s ahead of this JVM's, the measure finds it, without writing to any table.
 */
@ExtendWith(MiniHBase.class)
class ServerClocksIT {
  @Test
  void aRegionServerClockAheadOfTheDriversIsMeasuredFromItsReports() throws Exception {
    TableName t = MiniHBase.uniqueTable("clocks");
    MiniHBase.util().createTable(t, "m");
    try (Connection connection = HBaseConnections.open(MiniHBase.settings());
        Admin admin = connection.getAdmin()) {
      Set<ServerName> servers = ServerClocks.holding(connection, t);
      assertThat(servers).hasSize(1);
      long wait = ServerClocks.waitMillis(MiniHBase.settings().toConfiguration());

      ServerClocks.Clock same =
          ServerClocks.measure(
                  ServerClocks.reports(admin), servers, wait, System::currentTimeMillis)
              .farthest();
      assertThat(Math.abs(same.skewMillis())).isLessThan(1_000);

      EnvironmentEdgeManager.injectEdge(() -> System.currentTimeMillis() + 6_000);
      ServerClocks.Measured ahead;
      try {
        ahead =
            ServerClocks.measure(
                ServerClocks.reports(admin), servers, wait, System::currentTimeMillis);
      } finally {
        EnvironmentEdgeManager.reset();
      }
      assertThat(ahead.silent()).isEmpty();
      assertThat(ahead.farthest().skewMillis()).isBetween(5_000L, 6_500L);
    }
  }
}
