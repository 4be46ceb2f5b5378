package io.rekey.hbase;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The clocks of the region servers that hold some tables, measured without writing to them: each
 * server stamps its report to the master with its own clock ({@link
 * ServerMetrics#getReportTimestamp()}, every {@code hbase.regionserver.msginterval}, 3 s by
 * default). The master's copy is read every {@value #POLL_MILLIS} ms until each server's next
 * report arrives; the report was sent between two reads, so its stamp set against the time of those
 * reads bounds the server's clock to within a poll and a round trip.
 */
public final class ServerClocks {
  static final long POLL_MILLIS = 100;

  /** What the master holds of each server's last report: its stamp, by server. */
  @FunctionalInterface
  public interface Reports {
    Map<ServerName, Long> read() throws IOException;
  }

  /**
   * One server's clock against this JVM's.
   *
   * @param skewMillis how far ahead of this JVM's clock (negative: behind), less the uncertainty of
   *     the measure; 0 when within it
   * @param uncertaintyMillis how wide the measure was
   */
  public record Clock(ServerName server, long skewMillis, long uncertaintyMillis) {}

  /** The result: the servers measured, and those that sent no report within the time allowed. */
  public record Measured(List<Clock> clocks, List<ServerName> silent) {
    /** The clock farthest from this JVM's, or null when none was measured. */
    public Clock farthest() {
      Clock far = null;
      for (Clock c : clocks) {
        if (far == null || Math.abs(c.skewMillis()) > Math.abs(far.skewMillis())) {
          far = c;
        }
      }
      return far;
    }
  }

  private ServerClocks() {}

  /**
   * How long to wait for a server's next report: two of its intervals ({@code
   * hbase.regionserver.msginterval}, as this client's configuration gives it) and a second.
   */
  public static long waitMillis(Configuration conf) {
    return 2 * conf.getLong("hbase.regionserver.msginterval", 3_000) + 1_000;
  }

  /** The servers that hold a region of any of {@code tables} now. */
  public static Set<ServerName> holding(Connection connection, TableName... tables) {
    Set<ServerName> out = new TreeSet<>();
    for (TableName t : tables) {
      try {
        for (var location : connection.getRegionLocator(t).getAllRegionLocations()) {
          if (location.getServerName() != null) {
            out.add(location.getServerName());
          }
        }
      } catch (IOException e) {
        throw new RekeyException("cannot list the regions of " + t + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  /** The master's copy of every live server's last report. */
  public static Reports reports(Admin admin) {
    return () -> {
      ClusterMetrics metrics =
          admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      Map<ServerName, Long> out = new HashMap<>();
      metrics.getLiveServerMetrics().forEach((s, m) -> out.put(s, m.getReportTimestamp()));
      return out;
    };
  }

  /**
   * Measures the clocks of {@code servers}, waiting up to {@code waitMillis} for each one's next
   * report.
   */
  public static Measured measure(
      Reports reports, Set<ServerName> servers, long waitMillis, LongSupplier clock)
      throws IOException {
    List<Clock> clocks = new ArrayList<>();
    if (servers.isEmpty()) {
      return new Measured(clocks, List.of());
    }
    long before = clock.getAsLong();
    Map<ServerName, Long> first = reports.read();
    long readBefore = before;
    Set<ServerName> waiting = new TreeSet<>(servers);
    long deadline = before + waitMillis;
    while (!waiting.isEmpty() && clock.getAsLong() < deadline) {
      sleep();
      long start = clock.getAsLong();
      Map<ServerName, Long> now = reports.read();
      long end = clock.getAsLong();
      for (ServerName s : new ArrayList<>(waiting)) {
        Long stamp = now.get(s);
        if (stamp != null && !stamp.equals(first.get(s))) {
          // Sent after the last read began that did not have it, received before this one ended.
          clocks.add(clock(s, stamp, readBefore, end));
          waiting.remove(s);
        }
      }
      readBefore = start;
    }
    return new Measured(clocks, new ArrayList<>(waiting));
  }

  private static Clock clock(ServerName server, long stamp, long from, long to) {
    long skew = stamp - (from + to) / 2;
    long slack = (to - from + 1) / 2;
    long measured = Math.abs(skew) <= slack ? 0 : skew - Long.signum(skew) * slack;
    return new Clock(server, measured, to - from);
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RekeyException("interrupted while measuring the region servers' clocks", e);
    }
  }
}
