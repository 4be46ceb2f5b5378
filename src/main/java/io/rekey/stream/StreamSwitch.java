package io.rekey.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.hbase.RegionActivity;
import io.rekey.run.RunState;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.HiddenCells;
import io.rekey.stream.endpoint.StreamSettings;
import io.rekey.verify.VerifyHistory;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;

/**
 * {@code stream switch}: after the operator stopped the writers, proves that the stream carried
 * every edit the source took into the target, in a pause bounded by the stream's lag rather than by
 * the table. It reads the source's regions twice a settle apart (no write in between), fences every
 * live region server ({@link Fences}), waits for the endpoint to acknowledge each fence and for
 * every server to report its replication queues again, reads everything once more, and leaves the
 * verdict to {@link StreamDrain}. It refuses before any fence when the stream is disabled or the
 * target's last full comparison is missing, failed or too old ({@link VerifyHistory}).
 */
public final class StreamSwitch {
  private static final long POLL_MS = 100;

  private StreamSwitch() {}

  /**
   * How the switch waits and what it trusts.
   *
   * @param stateTable where the target's run history is
   * @param settle how long the source must show no write before the fences are written
   * @param drainTimeout how long to wait for the acknowledgements
   * @param maxVerifyAge how old the last full comparison of the target may be
   * @param acceptUnmapped how many source rows the stream could not place the operator
   *     acknowledged; null: none
   */
  public record Options(
      TableName stateTable,
      Duration settle,
      Duration drainTimeout,
      Duration maxVerifyAge,
      Long acceptUnmapped) {}

  /**
   * Decides whether the target may replace the source now.
   *
   * @param source a connection to the source's cluster
   * @param target a connection to the target's cluster (the same on one cluster)
   * @param stream the stream's peer as HBase reports it
   */
  public static StreamSwitchResult run(
      Connection source, Connection target, StreamPeer.Status stream, Options o)
      throws IOException {
    long t0 = System.nanoTime();
    StreamSettings s = stream.settings();
    // The migration's history lives with the table it migrated from: a reverse stream's target.
    Optional<String> early = before(s.reverse() ? target : source, stream, o);
    if (early.isPresent()) {
      return result(stream, t0, early.get(), 0, 0, 0);
    }
    try (Admin admin = source.getAdmin()) {
      List<String> crashing = crashRecoveries(admin);
      List<RegionActivity> stopped = RegionActivity.of(source, s.source());
      sleep(o.settle().toMillis());
      List<RegionActivity> settled = RegionActivity.of(source, s.source());
      Optional<String> moving =
          StreamDrain.beforeFences(s.source().getNameAsString(), stopped, settled, crashing);
      if (moving.isPresent()) {
        return result(stream, t0, moving.get(), 0, 0, 0);
      }
      Map<ServerName, Long> reported = reports(admin);
      List<ServerName> servers = new ArrayList<>(reported.keySet());
      Map<Integer, HRegionLocation> placed = Fences.place(source, s.fenceTable(), servers);
      long fenceId = System.currentTimeMillis();
      Fences.write(source, s.fenceTable(), stream.peerId(), fenceId, placed);
      long ackStart = System.nanoTime();
      long deadline = ackStart + o.drainTimeout().toNanos();
      Map<Integer, Long> acks = Fences.acks(target, s.fenceTable(), stream.peerId(), fenceId);
      // Every server reports its queues again after the fences: a recovered queue a crash
      // recovery created before the switch is then in the figures read below.
      while ((!acks.keySet().containsAll(placed.keySet()) || !reportedSince(admin, reported))
          && System.nanoTime() < deadline) {
        sleep(POLL_MS);
        acks = Fences.acks(target, s.fenceTable(), stream.peerId(), fenceId);
      }
      double ackSeconds = (System.nanoTime() - ackStart) / 1e9;
      List<RegionActivity> after = RegionActivity.of(source, s.source());
      Map<Integer, HRegionLocation> placedAfter = Fences.placement(source, s.fenceTable());
      ClusterMetrics metrics =
          admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      List<String> crashed = new ArrayList<>(crashing);
      crashed.addAll(crashRecoveries(admin));
      StreamDrain drain =
          new StreamDrain(
              s.source().getNameAsString(),
              stopped,
              after,
              names(servers),
              names(metrics.getLiveServerMetrics().keySet()),
              locations(placed),
              locations(placedAfter),
              acks,
              ackSeconds,
              recoveredQueues(metrics, stream.peerId()),
              crashed,
              Fences.refused(target, s.fenceTable(), stream.peerId()),
              o.acceptUnmapped(),
              HiddenCells.stillDiffering(source, target, s, stream.peerId()));
      Optional<String> refusal = drain.refusal();
      if (refusal.isEmpty()) {
        vouchForIndexes(target, s, fenceId);
      }
      return result(stream, t0, refusal.orElse(null), ackSeconds, servers.size(), fenceId);
    }
  }

  /**
   * Moves the watermark of each index the stream keeps to the fences' time: every edit the source
   * took before its writers stopped is indexed, so a scrutiny after the switch counts an entry that
   * differs as a difference, not as pending, and the index's next update (once the stream stops)
   * starts there.
   */
  private static void vouchForIndexes(Connection target, StreamSettings s, long fenceId) {
    for (StreamSettings.StreamedIndex index : s.indexes()) {
      RunState state = new RunState(target, index.stateTable(), index.table());
      if (state.watermark().orElse(Long.MAX_VALUE) < fenceId) {
        state.moveWatermark(fenceId);
      }
    }
  }

  /**
   * What refuses a switch before any fence: a disabled stream, no recent matching comparison of the
   * migration (also for a stream that rolls it back: it starts from the same proven pair).
   */
  private static Optional<String> before(Connection history, StreamPeer.Status stream, Options o) {
    if (!stream.enabled()) {
      return Optional.of(
          "the stream's replication peer "
              + stream.peerId()
              + " is disabled, so it ships nothing; enable it (HBase shell: enable_peer '"
              + stream.peerId()
              + "'), wait for 'rekey stream status' to show its queues moving, then switch");
    }
    TableName migrated = stream.settings().migratedTable();
    RunState state = new RunState(history, o.stateTable(), migrated);
    List<String> lines = state.tableExists() ? state.history(200) : List.of();
    return VerifyHistory.refusal(
        lines, migrated.getNameAsString(), System.currentTimeMillis(), o.maxVerifyAge());
  }

  private static StreamSwitchResult result(
      StreamPeer.Status stream,
      long t0,
      String refusal,
      double ackSeconds,
      int servers,
      long fenceId) {
    return new StreamSwitchResult(
        stream.peerId(),
        stream.settings().source().getNameAsString(),
        stream.settings().target().getNameAsString(),
        refusal == null,
        refusal,
        Math.round((System.nanoTime() - t0) / 1e7) / 100.0,
        Math.round(ackSeconds * 100) / 100.0,
        servers,
        fenceId,
        refusal != null
            ? List.of()
            : stream.settings().indexes().stream().map(i -> i.table().getNameAsString()).toList());
  }

  /** Each live server and the time of its latest report to the master, by its own clock. */
  private static Map<ServerName, Long> reports(Admin admin) throws IOException {
    Map<ServerName, Long> out = new LinkedHashMap<>();
    admin
        .getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
        .getLiveServerMetrics()
        .forEach((server, m) -> out.put(server, m.getReportTimestamp()));
    return out;
  }

  /** Whether every server of {@code before} sent a newer report since. */
  private static boolean reportedSince(Admin admin, Map<ServerName, Long> before)
      throws IOException {
    Map<ServerName, Long> now = reports(admin);
    for (Map.Entry<ServerName, Long> e : before.entrySet()) {
      Long latest = now.get(e.getKey());
      if (latest == null) {
        return true; // it left: the verdict refuses on the changed servers, no need to wait
      }
      if (latest <= e.getValue()) {
        return false;
      }
    }
    return true;
  }

  private static List<String> recoveredQueues(ClusterMetrics metrics, String peerId) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<ServerName, ServerMetrics> e : metrics.getLiveServerMetrics().entrySet()) {
      for (ReplicationLoadSource q : e.getValue().getReplicationLoadSourceList()) {
        if (q.getPeerID().equals(peerId) && q.isRecovered()) {
          out.add(q.getQueueId() + " on " + e.getKey().getServerName());
        }
      }
    }
    return out;
  }

  /**
   * The crashed servers the master is still recovering: an unfinished {@code ServerCrashProcedure},
   * which claims the dead server's replication queues before it ends.
   */
  static List<String> crashRecoveries(Admin admin) throws IOException {
    return crashRecoveries(admin.getProcedures());
  }

  static List<String> crashRecoveries(String proceduresJson) {
    List<String> out = new ArrayList<>();
    JsonNode procedures;
    try {
      procedures = Json.mapper().readTree(proceduresJson);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the master's procedures (to rule out a crash recovery): " + e.getMessage(),
          e);
    }
    for (JsonNode p : procedures) {
      String state = p.path("state").asText();
      if (p.path("className").asText().endsWith(".ServerCrashProcedure")
          && !Set.of("SUCCESS", "ROLLEDBACK", "FAILED").contains(state)) {
        out.add("crash recovery procedure " + p.path("procId").asText() + " (" + state + ")");
      }
    }
    return out;
  }

  private static Set<String> names(java.util.Collection<ServerName> servers) {
    Set<String> out = new TreeSet<>();
    servers.forEach(s -> out.add(s.getServerName()));
    return out;
  }

  private static Map<Integer, String> locations(Map<Integer, HRegionLocation> placement) {
    Map<Integer, String> out = new HashMap<>();
    placement.forEach(
        (region, l) ->
            out.put(
                region,
                (l.getServerName() == null ? "(unassigned)" : l.getServerName().getServerName())
                    + "@"
                    + l.getSeqNum()));
    return out;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RekeyException("stream switch: interrupted", e);
    }
  }
}
