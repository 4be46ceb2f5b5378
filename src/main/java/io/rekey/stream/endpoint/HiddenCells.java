package io.rekey.stream.endpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cells stamped in the past that one table hides and the other shows. Under HBase's default
 * behavior a delete marker hides every older cell of its column or family, also one written after
 * it, until a major compaction drops the marker and what it hides. When the source compacted a
 * marker away and then received a cell stamped before it, the target, which still holds the marker
 * the stream copied, hides that cell; and the other way round after the target compacted. Writing
 * the same cells into both cannot make them read the same.
 *
 * <p>Only a cell stamped before it was logged can fall under a marker written earlier, so the
 * endpoint reads such cells back from both tables after writing them ({@link #differing}) and
 * records the ones that read differently in the fence table on the target's cluster (rows that
 * start with {@code 0xFD}, one cell each). The switch reads each recorded cell again once the
 * stream has drained ({@link #stillDiffering}): one that still differs refuses it.
 */
public final class HiddenCells {
  /**
   * How long before its edit was logged a cell must be stamped to be read back: the writer's clock
   * may run behind the region server's by this much without every write being read back.
   */
  static final long STAMPED_BEFORE_MS = 1_000;

  private static final byte HIDDEN = (byte) 0xFD;
  private static final int EXAMPLES = 5;

  private HiddenCells() {}

  /**
   * A cell of the source as the stream wrote it into the target.
   *
   * @param sourceRow its row in the source
   * @param targetRow its row in the target
   */
  public record Stamped(
      byte[] sourceRow, byte[] targetRow, byte[] family, byte[] qualifier, long timestamp) {
    String describe(boolean sourceShows) {
      return Bytes.toStringBinary(sourceRow)
          + "/"
          + Bytes.toStringBinary(family)
          + ":"
          + Bytes.toStringBinary(qualifier)
          + "@"
          + timestamp
          + (sourceShows
              ? " is read from the source but hidden in the target"
              : " is read from the target but hidden in the source");
    }

    byte[] encode() {
      ByteBuffer b =
          ByteBuffer.allocate(
              16 + sourceRow.length + targetRow.length + family.length + qualifier.length + 8);
      for (byte[] part : new byte[][] {sourceRow, targetRow, family, qualifier}) {
        b.putInt(part.length).put(part);
      }
      return b.putLong(timestamp).array();
    }

    static Stamped decode(byte[] bytes) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      byte[][] parts = new byte[4][];
      for (int i = 0; i < 4; i++) {
        parts[i] = new byte[b.getInt()];
        b.get(parts[i]);
      }
      return new Stamped(parts[0], parts[1], parts[2], parts[3], b.getLong());
    }
  }

  /**
   * The cells a table shows and the other hides, and the first few as lines.
   *
   * @param count how many
   */
  public record Differing(long count, List<String> examples) {
    public Differing {
      examples = List.copyOf(examples);
    }

    /** Nothing differs. */
    public static final Differing NONE = new Differing(0, List.of());
  }

  /** Whether a cell was stamped long enough before its edit was logged to be read back. */
  static boolean stampedBefore(Cell put, long loggedAt) {
    return put.getTimestamp() < loggedAt - STAMPED_BEFORE_MS;
  }

  /**
   * A cell one table shows and the other hides.
   *
   * @param sourceShows whether the source is the one that shows it
   */
  record Seen(Stamped cell, boolean sourceShows) {
    String describe() {
      return cell.describe(sourceShows);
    }
  }

  /**
   * Of {@code cells}, each read from both tables: the ones one of them shows and the other hides.
   * The cells of a row at one timestamp (a message's columns, written together) are read in one Get
   * from each table.
   */
  static List<Seen> differing(Table source, Table target, List<Stamped> cells) throws IOException {
    if (cells.isEmpty()) {
      return List.of();
    }
    Map<RowAt, List<Stamped>> groups = new LinkedHashMap<>();
    for (Stamped c : cells) {
      groups
          .computeIfAbsent(
              new RowAt(ByteBuffer.wrap(c.sourceRow()), c.timestamp()), k -> new ArrayList<>())
          .add(c);
    }
    List<Get> fromSource = new ArrayList<>(groups.size());
    List<Get> fromTarget = new ArrayList<>(groups.size());
    for (List<Stamped> group : groups.values()) {
      fromSource.add(get(group, Stamped::sourceRow));
      fromTarget.add(get(group, Stamped::targetRow));
    }
    Result[] inSource = source.get(fromSource);
    Result[] inTarget = target.get(fromTarget);
    List<Seen> out = new ArrayList<>();
    int g = 0;
    for (List<Stamped> group : groups.values()) {
      for (Stamped c : group) {
        boolean sourceShows = inSource[g].containsColumn(c.family(), c.qualifier());
        if (sourceShows != inTarget[g].containsColumn(c.family(), c.qualifier())) {
          out.add(new Seen(c, sourceShows));
        }
      }
      g++;
    }
    return out;
  }

  /** A source row at one timestamp. */
  private record RowAt(ByteBuffer row, long timestamp) {}

  /** One Get of the group's columns at their timestamp, from the row {@code row} names. */
  private static Get get(List<Stamped> group, Function<Stamped, byte[]> row) throws IOException {
    Stamped first = group.get(0);
    Get get = new Get(row.apply(first)).setTimestamp(first.timestamp());
    for (Stamped c : group) {
      get.addColumn(c.family(), c.qualifier());
    }
    return get;
  }

  /** The fence table's records of {@code cells}, for the stream of {@code peerId}. */
  static List<Put> records(String peerId, List<Seen> cells) {
    List<Put> out = new ArrayList<>();
    for (Seen c : cells) {
      out.add(
          new Put(row(peerId))
              .addColumn(Fences.FAMILY, c.cell().encode(), Bytes.toBytes(c.describe())));
    }
    return out;
  }

  private static byte[] row(String peerId) {
    return Bytes.add(new byte[] {HIDDEN}, Bytes.toBytes(peerId));
  }

  /**
   * The recorded cells of the stream of {@code peerId} that still read differently from the source
   * and the target now.
   *
   * @param source a connection to the source's cluster
   * @param target a connection to the target's cluster, where the fence table's records are
   */
  public static Differing stillDiffering(
      Connection source, Connection target, StreamSettings settings, String peerId)
      throws IOException {
    List<Stamped> recorded = new ArrayList<>();
    try (Table fences = target.getTable(settings.fenceTable())) {
      for (Cell c : fences.get(new Get(row(peerId)).addFamily(Fences.FAMILY)).rawCells()) {
        recorded.add(Stamped.decode(CellUtil.cloneQualifier(c)));
      }
    }
    if (recorded.isEmpty()) {
      return Differing.NONE;
    }
    try (Table s = source.getTable(settings.source());
        Table t = target.getTable(settings.target())) {
      List<Seen> still = differing(s, t, recorded);
      List<String> examples = new ArrayList<>();
      for (Seen c : still.subList(0, Math.min(EXAMPLES, still.size()))) {
        examples.add(c.describe());
      }
      return new Differing(still.size(), examples);
    }
  }
}
