package io.rekey.hbase;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a cluster whether it serves requests: a master, at least one live region server, and the
 * meta table readable (listing tables needs it). Used by {@code status} and to wait for a freshly
 * started local HBase.
 */
public final class ClusterProbe {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterProbe.class);

  private ClusterProbe() {}

  /**
   * Probes until the cluster answers or {@code waitSeconds} pass (0: one try).
   *
   * @throws RekeyException saying what was missing at the last try
   */
  public static ClusterStatus probe(HBaseSettings settings, long waitSeconds) {
    long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
    while (true) {
      try {
        return probeOnce(settings);
      } catch (RekeyException e) {
        if (System.nanoTime() > deadline) {
          throw waitSeconds == 0
              ? e
              : new RekeyException(
                  e.getMessage() + " (still so after waiting " + waitSeconds + " s)", e);
        }
        LOG.debug("cluster not ready yet: {}", e.getMessage());
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private static ClusterStatus probeOnce(HBaseSettings settings) {
    Configuration conf = settings.toConfiguration();
    // One quick attempt per probe: the caller decides how long to keep trying.
    conf.setInt("hbase.client.retries.number", 1);
    conf.setInt("hbase.client.operation.timeout", 10_000);
    conf.setInt("hbase.rpc.timeout", 5_000);
    conf.setInt("zookeeper.recovery.retry", 0);
    String where = settings.describe(conf);
    HBaseConnections.requireZooKeeper(settings, conf);
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Admin admin = connection.getAdmin()) {
      ClusterMetrics metrics =
          admin.getClusterMetrics(
              EnumSet.of(
                  ClusterMetrics.Option.MASTER,
                  ClusterMetrics.Option.LIVE_SERVERS,
                  ClusterMetrics.Option.HBASE_VERSION));
      List<String> servers = new ArrayList<>();
      for (ServerName s : metrics.getLiveServerMetrics().keySet()) {
        servers.add(s.toString());
      }
      if (servers.isEmpty()) {
        throw new RekeyException("HBase at " + where + " has a master but no live region server");
      }
      int tables = admin.listTableNames().length;
      return new ClusterStatus(
          where,
          metrics.getMasterName() == null ? "(none)" : metrics.getMasterName().toString(),
          servers,
          tables,
          metrics.getHBaseVersion());
    } catch (IOException e) {
      throw new RekeyException(
          "HBase at " + where + " does not serve requests yet: " + firstLine(e.getMessage()), e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
