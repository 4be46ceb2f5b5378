package io.rekey.stream.endpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How fast a stream writes its target, per WAL queue: after each batch it wrote, a queue's endpoint
 * records the cells it wrote so far with the count about a minute before, in the fence table on the
 * target's cluster (rows {@code 0xFC} and the peer id, one cell per WAL group, a recovered queue's
 * under the dead server's group). {@code stream status} reads them: HBase's replication figures say
 * what the source shipped, these what reached the target and how fast.
 */
public final class WriteRate {
  private static final byte RATE = (byte) 0xFC;

  /** How far back a rate looks. */
  static final long WINDOW_MS = 60_000;

  private WriteRate() {}

  /**
   * What one queue wrote.
   *
   * @param walGroup the queue's WAL group (its server, or the dead server it recovers)
   * @param cellsWritten cells written into the target since its endpoint started (a batch HBase
   *     ships again is written, and counted, again)
   * @param cellsPerSecond over the last {@code windowSeconds} before its last record (0 after its
   *     first batch: no span yet)
   * @param windowSeconds the span of the rate: about the last minute of batches (less in a queue's
   *     first minute, more when its batches are minutes apart)
   * @param recordedAt when it last wrote, epoch millis
   */
  public record Figure(
      String walGroup,
      long cellsWritten,
      double cellsPerSecond,
      double windowSeconds,
      long recordedAt) {
    /** The figure as {@code stream status} prints it, {@code now} being the status's time. */
    public String describe(long now) {
      if (windowSeconds == 0) {
        return String.format(
            "%s: %,d cells written in its first batch %.0f s ago",
            walGroup, cellsWritten, Math.max(0, now - recordedAt) / 1000.0);
      }
      return String.format(
          "%s: %,d cells written, %,.0f cells/s over the %.0f s before its last batch %.0f s ago",
          walGroup,
          cellsWritten,
          cellsPerSecond,
          windowSeconds,
          Math.max(0, now - recordedAt) / 1000.0);
    }
  }

  /** One queue's count, kept by the endpoint; thread-safe. */
  static final class Meter {
    private final String walGroup;
    private long total;
    private long windowStart = -1;
    private long windowStartTotal;

    Meter(String walGroup) {
      this.walGroup = walGroup;
    }

    /**
     * Counts {@code cells} written at {@code now}; the record to write when one is due, else null.
     */
    synchronized Put written(String peerId, long cells, long now) {
      if (windowStart < 0) {
        windowStart = now;
      }
      long prevAt = windowStart;
      long prevTotal = windowStartTotal;
      total += cells;
      if (now - windowStart >= WINDOW_MS) {
        windowStart = now;
        windowStartTotal = total;
      }
      byte[] value =
          ByteBuffer.allocate(4 * Long.BYTES)
              .putLong(total)
              .putLong(now)
              .putLong(prevTotal)
              .putLong(prevAt)
              .array();
      return new Put(row(peerId)).addColumn(Fences.FAMILY, Bytes.toBytes(walGroup), value);
    }
  }

  static Figure decode(String walGroup, byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    long total = b.getLong();
    long at = b.getLong();
    long prevTotal = b.getLong();
    long prevAt = b.getLong();
    long span = at - prevAt;
    return new Figure(
        walGroup,
        total,
        span <= 0 ? 0 : Math.round((total - prevTotal) * 100_000.0 / span) / 100.0,
        Math.round(span / 10.0) / 100.0,
        at);
  }

  private static byte[] row(String peerId) {
    return Bytes.add(new byte[] {RATE}, Bytes.toBytes(peerId));
  }

  /** What each queue of the stream of {@code peerId} recorded, read from the target's cluster. */
  public static List<Figure> read(Connection target, TableName table, String peerId)
      throws IOException {
    List<Figure> out = new ArrayList<>();
    try (Table t = target.getTable(table)) {
      Result r = t.get(new Get(row(peerId)).addFamily(Fences.FAMILY));
      for (Cell c : r.rawCells()) {
        out.add(decode(Bytes.toString(CellUtil.cloneQualifier(c)), CellUtil.cloneValue(c)));
      }
    }
    return out;
  }
}
