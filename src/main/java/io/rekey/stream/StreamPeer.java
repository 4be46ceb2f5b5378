package io.rekey.stream;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;

/**
 * A rekey stream as a replication peer of the source's cluster: added with {@link RekeyingEndpoint}
 * as its endpoint and the stream's settings in its configuration, read back for its status, and
 * removed. From the moment it is added every region server ships it the WAL edits written after
 * that moment.
 */
public final class StreamPeer {
  private StreamPeer() {}

  /**
   * What HBase reports of a stream.
   *
   * @param enabled whether the peer ships edits
   * @param queues one line per region server queue of the peer: age of the last shipped edit, lag,
   *     WAL files waiting; HBase refreshes these every few seconds, so they show progress, not that
   *     the stream is drained
   */
  public record Status(
      String peerId, StreamSettings settings, boolean enabled, List<String> queues) {}

  /**
   * Adds the peer.
   *
   * @throws RekeyException when a peer of that id exists, or a table is missing
   */
  public static void start(Admin admin, String peerId, StreamSettings settings) throws IOException {
    new EditMapper(settings.mapping()); // refuses what a stream cannot map, before any peer exists
    for (TableName t : List.of(settings.source(), settings.target())) {
      if (!admin.tableExists(t)) {
        throw new RekeyException(
            "the table "
                + t
                + " does not exist; a stream re-keys an existing source into an existing target"
                + " (create the target with rekey first)");
      }
    }
    for (ReplicationPeerDescription p : admin.listReplicationPeers()) {
      if (p.getPeerId().equals(peerId)) {
        throw new RekeyException(
            "a replication peer '"
                + peerId
                + "' exists already; stop that stream first ('rekey stream stop') or choose"
                + " another --peer-id");
      }
    }
    ReplicationPeerConfig config =
        ReplicationPeerConfig.newBuilder()
            .setReplicationEndpointImpl(RekeyingEndpoint.class.getName())
            .setReplicateAllUserTables(false)
            .setTableCFsMap(Map.of(settings.source(), List.of()))
            .putAllConfiguration(settings.toPeerConfiguration())
            .build();
    admin.addReplicationPeer(peerId, config, true);
  }

  /** The stream's settings and HBase's figures for it, or null when there is no such peer. */
  public static Status status(Admin admin, String peerId) throws IOException {
    ReplicationPeerDescription peer = null;
    for (ReplicationPeerDescription p : admin.listReplicationPeers()) {
      if (p.getPeerId().equals(peerId)) {
        peer = p;
      }
    }
    if (peer == null) {
      return null;
    }
    List<String> queues = new ArrayList<>();
    ClusterMetrics metrics =
        admin.getClusterMetrics(java.util.EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
    for (Map.Entry<ServerName, ServerMetrics> server : metrics.getLiveServerMetrics().entrySet()) {
      for (ReplicationLoadSource q : server.getValue().getReplicationLoadSourceList()) {
        if (q.getPeerID().equals(peerId)) {
          queues.add(
              server.getKey().getServerName()
                  + (q.isRecovered() ? " (recovered queue)" : "")
                  + ": last shipped edit "
                  + q.getAgeOfLastShippedOp()
                  + " ms old, lag "
                  + q.getReplicationLag()
                  + " ms, "
                  + q.getSizeOfLogQueue()
                  + " WAL file(s) waiting");
        }
      }
    }
    return new Status(
        peerId,
        StreamSettings.fromPeerConfiguration(peer.getPeerConfig().getConfiguration()),
        peer.isEnabled(),
        queues);
  }

  /** Removes the peer; true when there was one. */
  public static boolean stop(Admin admin, String peerId) throws IOException {
    for (ReplicationPeerDescription p : admin.listReplicationPeers()) {
      if (p.getPeerId().equals(peerId)) {
        admin.removeReplicationPeer(peerId);
        return true;
      }
    }
    return false;
  }
}
