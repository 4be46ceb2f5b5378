package io.rekey.stream;

import io.rekey.common.RekeyException;
import io.rekey.stream.endpoint.EditMapper;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.RekeyingEndpoint;
import io.rekey.stream.endpoint.StreamSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
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
  /**
   * WAL files a queue may hold back, or how far it may lag, before status warns: a stream that does
   * not keep up. (HBase's reader runs ahead of a stalled shipper, so a small backlog shows as one
   * WAL file and a growing lag.)
   */
  static final int WALS_HELD_WARNING = 8;

  static final long LAG_WARNING_MS = 10_000;

  /** How long a peer is added after its servers were asked to roll their WALs. */
  private static final long ROLL_WAIT_MS = 1_500;

  private StreamPeer() {}

  /**
   * What HBase reports of a stream.
   *
   * @param enabled whether the peer ships edits
   * @param bandwidth the peer's bandwidth: bytes of WAL entries each region server ships it a
   *     second, 0 for no limit of its own
   * @param serial whether HBase ships each region's edits in their order across moves, splits,
   *     merges and dead servers (a serial peer), which a table with {@code NEW_VERSION_BEHAVIOR}
   *     needs and the endpoint then keeps while it writes
   * @param queues HBase's figures of each region server queue of the peer; HBase refreshes them
   *     every few seconds, so they show progress, not that the stream is drained
   */
  public record Status(
      String peerId,
      StreamSettings settings,
      boolean enabled,
      long bandwidth,
      boolean serial,
      List<Queue> queues) {}

  /**
   * One region server queue of the peer, as HBase's replication load reports it.
   *
   * @param server the region server
   * @param recovered whether it is a dead server's queue this server took over
   * @param lastShippedAgeMs age of the last shipped edit
   * @param lagMs HBase's replication lag
   * @param walFilesWaiting WAL files the server keeps for the stream
   * @param editsShipped edits shipped since the server started
   * @param walEntriesRead WAL entries read since the server started
   * @param behind whether it holds 8 WAL files or more, or lags 10 s or more: a stream that does
   *     not keep up, whose WALs fill the source's disks
   */
  public record Queue(
      String server,
      boolean recovered,
      long lastShippedAgeMs,
      long lagMs,
      long walFilesWaiting,
      long editsShipped,
      long walEntriesRead,
      boolean behind) {
    /** The queue as {@code stream status} prints it. */
    public String describe() {
      return server
          + (recovered ? " (recovered queue)" : "")
          + ": last shipped edit "
          + lastShippedAgeMs
          + " ms old, lag "
          + lagMs
          + " ms, "
          + walFilesWaiting
          + " WAL file(s) waiting, "
          + editsShipped
          + " edit(s) shipped of "
          + walEntriesRead
          + " WAL entries read since the server started"
          + (behind
              ? " (WARNING: behind; the source's servers keep every WAL until the stream"
                  + " ships it, so a stream that stays behind fills their disks)"
              : "");
    }
  }

  /**
   * Adds the peer, enabled, and the fence table on both clusters: the stream of an existing target.
   *
   * @param source the source cluster's admin, where the peer lives
   * @param target the target cluster's admin (the same as {@code source} on one cluster)
   * @throws RekeyException when a peer of that id exists, or a table is missing
   */
  public static void start(Admin source, Admin target, String peerId, StreamSettings settings)
      throws IOException {
    requireTarget(target, settings);
    requireStartable(source, peerId, settings);
    add(source, target, peerId, settings, true);
  }

  /** Refuses, in one line, a stream over a target that does not exist. */
  public static void requireTarget(Admin target, StreamSettings settings) throws IOException {
    requireTable(target, settings.target(), "target");
  }

  /**
   * Limits what each region server ships the stream's peer to {@code bytesPerSecond} of WAL entries
   * (HBase's peer bandwidth, which its replication source enforces before handing a batch to any
   * endpoint); 0 leaves the peer without a limit of its own.
   */
  public static void limit(Admin source, String peerId, long bytesPerSecond) throws IOException {
    if (bytesPerSecond == 0) {
      return;
    }
    ReplicationPeerConfig current = source.getReplicationPeerConfig(peerId);
    source.updateReplicationPeerConfig(
        peerId, ReplicationPeerConfig.newBuilder(current).setBandwidth(bytesPerSecond).build());
  }

  /**
   * Refuses, before anything is created, a stream that cannot start: a layout it cannot map, a
   * missing source, a peer of that id.
   */
  public static void requireStartable(Admin source, String peerId, StreamSettings settings)
      throws IOException {
    EditMapper.of(settings); // refuses what a stream cannot map, before any peer exists
    requireTable(source, settings.source(), "source");
    for (ReplicationPeerDescription p : source.listReplicationPeers()) {
      if (p.getPeerId().equals(peerId)) {
        throw new RekeyException(
            "a replication peer '"
                + peerId
                + "' exists already; stop that stream first ('rekey stream stop') or choose"
                + " another --peer-id");
      }
    }
  }

  /**
   * Adds the peer and the fence tables, after rolling every source server's WAL. A disabled peer
   * already holds the WAL from this moment on, shipping nothing until {@link #enable}: a copy taken
   * after it misses nothing. The peer is serial where a table's result depends on the order of its
   * edits ({@link #orderDependent}).
   *
   * @throws RekeyException before anything is created, when the stream must be serial and HBase
   *     would not order the source's edits
   */
  public static void add(
      Admin source, Admin target, String peerId, StreamSettings settings, boolean enabled)
      throws IOException {
    boolean moves = !settings.reverse() && EditMapper.keyUsesColumns(settings.mapping());
    if (moves
        && target.tableExists(settings.target())
        && !orderDependent(target, settings.target())) {
      throw new RekeyException(
          "the new key of "
              + settings.target()
              + " is bound to a column, so rows move between keys, and the markers that retire a"
              + " moved row's old key would hide it for good when it moves back: its families"
              + " must keep NEW_VERSION_BEHAVIOR (as a copy creates them); nothing was created:"
              + " alter '"
              + settings.target()
              + "', {NAME => 'FAMILY', NEW_VERSION_BEHAVIOR => true} for each family");
    }
    // A column-bound key is placed by reading the row ahead of its edits, which needs each row's
    // edits in their order (BoundRows); the copy creates such a target with NEW_VERSION_BEHAVIOR.
    // So is an index's: the endpoint reads each row as it is now (IndexKeeper).
    boolean serial =
        moves
            || !settings.indexes().isEmpty()
            || orderDependent(source, settings.source())
            || orderDependent(target, settings.target());
    if (serial) {
      requireOrderedBySource(source, settings);
    }
    int servers =
        source
            .getClusterMetrics(java.util.EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
            .getLiveServerMetrics()
            .size();
    Fences.ensureTable(source, settings.fenceTable(), servers);
    Fences.ensureTable(target, settings.fenceTable(), 1);
    // A new peer starts at each server's current WAL, which also holds edits from before it: a
    // bulk load's marker there would be a refusal for a load the copy (or, for a reverse stream,
    // the forward stream's own copy) already holds. A fresh WAL first holds only what follows.
    // The roll is only requested: a server's roller thread wakes at once and takes milliseconds,
    // and one that is late leaves an old marker to be shipped, a refusal, never a missed edit.
    for (ServerName server : source.getRegionServers()) {
      source.rollWALWriter(server);
    }
    sleep(ROLL_WAIT_MS);
    ReplicationPeerConfig config =
        ReplicationPeerConfig.newBuilder()
            .setReplicationEndpointImpl(RekeyingEndpoint.class.getName())
            .setSerial(serial)
            .setReplicateAllUserTables(false)
            .setTableCFsMap(Map.of(settings.source(), List.of(), settings.fenceTable(), List.of()))
            .putAllConfiguration(settings.toPeerConfiguration())
            .build();
    source.addReplicationPeer(peerId, config, enabled);
  }

  /** Lets a disabled peer ship what its WAL holds since it was added. */
  public static void enable(Admin source, String peerId) throws IOException {
    source.enableReplicationPeer(peerId);
  }

  /**
   * Whether a table (when it exists: a copy creates the target later, with the source's family
   * settings) keeps NEW_VERSION_BEHAVIOR in a family. There a delete hides only what was written
   * before it, so the target ends as the source only when each row's edits reach it in their order:
   * the stream's peer is then serial, which HBase keeps across a region's moves, splits, merges and
   * dead servers (the endpoint keeps it too: {@link RekeyingEndpoint}).
   */
  private static boolean orderDependent(Admin admin, TableName t) throws IOException {
    if (!admin.tableExists(t)) {
      return false;
    }
    for (ColumnFamilyDescriptor f : admin.getDescriptor(t).getColumnFamilies()) {
      if (f.isNewVersionBehavior()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses a serial stream of a source whose regions HBase records no order for: it writes a
   * region's sequence barriers, by which a serial peer holds back a moved or split region's newer
   * edits, only for a table with a family of global replication scope.
   */
  private static void requireOrderedBySource(Admin source, StreamSettings settings)
      throws IOException {
    TableDescriptor t = source.getDescriptor(settings.source());
    if (t.hasGlobalReplicationScope()) {
      return;
    }
    String family = t.getColumnFamilies()[0].getNameAsString();
    for (ColumnFamilyDescriptor f : t.getColumnFamilies()) {
      if (f.isNewVersionBehavior()) {
        family = f.getNameAsString();
      }
    }
    throw new RekeyException(
        "the stream "
            + settings.source()
            + " -> "
            + settings.target()
            + " must keep each row's edits in their order (a family keeps NEW_VERSION_BEHAVIOR,"
            + " where a delete hides only what was written before it), and HBase orders a"
            + " region's edits across moves, splits and dead servers only for a table with a"
            + " family of REPLICATION_SCOPE 1; nothing was created: alter '"
            + settings.source()
            + "', {NAME => '"
            + family
            + "', REPLICATION_SCOPE => 1} (a replication peer of all tables then ships it too)");
  }

  private static void requireTable(Admin admin, TableName t, String side) throws IOException {
    if (!admin.tableExists(t)) {
      throw new RekeyException(
          "the "
              + side
              + " table "
              + t
              + " does not exist; a stream re-keys an existing source into an existing target"
              + " (create the target with rekey first)");
    }
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
    List<Queue> queues = new ArrayList<>();
    ClusterMetrics metrics =
        admin.getClusterMetrics(java.util.EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
    for (Map.Entry<ServerName, ServerMetrics> server : metrics.getLiveServerMetrics().entrySet()) {
      for (ReplicationLoadSource q : server.getValue().getReplicationLoadSourceList()) {
        if (q.getPeerID().equals(peerId)) {
          queues.add(
              new Queue(
                  server.getKey().getServerName(),
                  q.isRecovered(),
                  q.getAgeOfLastShippedOp(),
                  q.getReplicationLag(),
                  q.getSizeOfLogQueue(),
                  q.getOPsShipped(),
                  q.getEditsRead(),
                  q.getSizeOfLogQueue() >= WALS_HELD_WARNING
                      || q.getReplicationLag() >= LAG_WARNING_MS));
        }
      }
    }
    return new Status(
        peerId,
        StreamSettings.fromPeerConfiguration(peer.getPeerConfig().getConfiguration()),
        peer.isEnabled(),
        peer.getPeerConfig().getBandwidth(),
        peer.getPeerConfig().isSerial(),
        queues);
  }

  /**
   * Turns a stream around after its switch, so that a rollback is one more switch: adds the peer
   * that carries the migrated table's edits back into the table migrated from, disabled; removes
   * this stream's peer; then enables the new one. The new peer holds the migrated table's WAL from
   * before the old one goes, so no edit is missed; the two never both ship, or each would carry the
   * other's writes back again. Whatever the old peer still wrote into the migrated table returns as
   * the very cells the table migrated from holds: written again, they change nothing.
   *
   * @param here the admin of this stream's source cluster
   * @param there the admin of its target's cluster (the same on one cluster)
   * @param hereClient client settings of this stream's source cluster for the target's servers
   *     (empty on one cluster)
   * @return the reverse stream's settings
   * @throws RekeyException before anything changed, when the layouts cannot be run backwards, a
   *     table is missing or the reverse peer's id is taken
   */
  public static StreamSettings reverse(
      Admin here, Admin there, Status stream, String reversePeerId, Map<String, String> hereClient)
      throws IOException {
    StreamSettings back = stream.settings().reversed(hereClient);
    try {
      EditMapper.of(back);
    } catch (IllegalArgumentException e) {
      throw new RekeyException(
          "the stream "
              + stream.peerId()
              + " cannot run the other way: "
              + e.getMessage()
              + "; nothing was changed (it still runs): stop it without --reverse, knowing that"
              + " writes to "
              + back.source()
              + " cannot then be carried back into "
              + back.target());
    }
    requireTable(here, back.target(), "target");
    requireStartable(there, reversePeerId, back);
    add(there, here, reversePeerId, back, false);
    stop(here, stream.peerId());
    enable(there, reversePeerId);
    return back;
  }

  private static void sleep(long millis) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while the WALs rolled");
    }
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
