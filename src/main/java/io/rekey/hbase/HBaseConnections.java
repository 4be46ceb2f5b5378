package io.rekey.hbase;

import io.rekey.common.RekeyException;
import io.rekey.security.TokenFollowingConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;

/** Opens HBase connections, failing fast with a clear message when the cluster is not there. */
public final class HBaseConnections {
  private static final int PROBE_TIMEOUT_MS = 2_000;

  private HBaseConnections() {}

  /**
   * Opens a connection after checking that one ZooKeeper server answers, because the HBase client
   * otherwise retries for minutes before saying anything useful. It follows the job's HBase
   * delegation token as Spark renews it ({@link TokenFollowingConnection}).
   */
  public static Connection open(HBaseSettings settings) {
    Configuration conf = settings.toConfiguration();
    requireZooKeeper(settings, conf);
    try {
      return TokenFollowingConnection.open(conf);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot connect to HBase through " + settings.describe(conf) + ": " + e.getMessage(), e);
    }
  }

  /** Throws a {@link RekeyException} saying how to fix it unless one ZooKeeper server answers. */
  static void requireZooKeeper(HBaseSettings settings, Configuration conf) {
    String quorum = conf.get("hbase.zookeeper.quorum", "localhost");
    int defaultPort = conf.getInt("hbase.zookeeper.property.clientPort", 2181);
    for (String server : quorum.split(",")) {
      String host = server.trim();
      int port = defaultPort;
      int colon = host.lastIndexOf(':');
      if (colon > 0) {
        port = Integer.parseInt(host.substring(colon + 1));
        host = host.substring(0, colon);
      }
      if (answers(host, port)) {
        return;
      }
    }
    throw new RekeyException(
        "cannot reach "
            + settings.describe(conf)
            + ": is HBase running? Start the local one with 'jobs/hbase-local.sh start', or"
            + " point at a cluster with --zk host:port or --hbase-conf DIR");
  }

  private static boolean answers(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), PROBE_TIMEOUT_MS);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
