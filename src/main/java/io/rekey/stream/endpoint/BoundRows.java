package io.rekey.stream.endpoint;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * Where the edits of one replication batch go when the new key is bound to a column: an edit that
 * does not change the bound column does not say where its row lives, so each source row is placed
 * by its bound columns' values now, read from the source, against the keys the {@link KeyMap} says
 * the target holds it under.
 *
 * <ul>
 *   <li>Held under its key now, only: the edits go there.
 *   <li>Held elsewhere or nowhere, and mappable now (a move, a move back, a row the copy could not
 *       map that now can be): the row as the source reads it now, every version, written under its
 *       key now, which holds the batch's edits of it already (the source logged them before it
 *       shipped them); then every other key retired with a family delete marker at the highest
 *       timestamp.
 *   <li>Not mappable now but still readable (its bound column deleted, or given a value the layout
 *       refuses): every key retired, and the row refused with the layout's reason.
 *   <li>Deleted: the edits (its delete markers) go under every key it is held under.
 * </ul>
 *
 * <p>Reading the source ahead of the edit is safe because the stream is serial (its target keeps
 * {@code NEW_VERSION_BEHAVIOR}, as a copy of a column-bound layout creates it): every later edit of
 * the row is written after the row itself, in its order, so the target ends as the source now; and
 * there a marker hides only what was written before it, so a row that moves back is written again
 * after the marker that retired it. The key map's record is written after the target writes it
 * describes: a batch that fails in between is shipped again and moves the row again, which writes
 * the same cells.
 */
final class BoundRows {
  private static final long RETIRE_ALL = Long.MAX_VALUE - 1;
  private static final int ROW_BATCH = 1_000;

  /**
   * Where one source row's edits go.
   *
   * @param keys the target keys its edits are written under (none: the row is nowhere)
   * @param before what the target gets first, in order: the row rewritten, its old keys retired
   * @param refused why the row cannot be placed, or null
   */
  record Placement(List<byte[]> keys, List<Mutation> before, String refused) {}

  private final KeyMapping mapping;
  private final String peerId;
  private final List<byte[]> families;
  private final byte[][][] boundColumns;

  /**
   * @param families the target's families (those a retired key is cleared of)
   */
  BoundRows(KeyMapping mapping, String peerId, List<byte[]> families) {
    this.mapping = mapping;
    this.peerId = peerId;
    this.families = List.copyOf(families);
    List<byte[][]> bound = new ArrayList<>();
    for (ColumnBinding c : mapping.source().columns()) {
      bound.add(new byte[][] {Bytes.toBytes(c.family()), Bytes.toBytes(c.qualifier())});
    }
    this.boundColumns = bound.toArray(new byte[0][][]);
  }

  /**
   * One batch's placements: each source row decided once, when the batch first names it. Holds the
   * source and fence tables it reads, closed with it.
   */
  final class Batch implements Closeable {
    private final Table source;
    private final Table fence;
    private final Map<ByteBuffer, Placement> placed = new HashMap<>();
    private final Map<ByteBuffer, List<byte[]>> records = new LinkedHashMap<>();
    private final List<byte[]> unrefused = new ArrayList<>();

    Batch(Table source, Table fence) {
      this.source = source;
      this.fence = fence;
    }

    /** Decides the rows of {@code rows} not decided yet, reading in batched reads. */
    void place(Collection<byte[]> rows) throws IOException {
      List<byte[]> todo = new ArrayList<>();
      for (byte[] r : rows) {
        if (!placed.containsKey(ByteBuffer.wrap(r))) {
          todo.add(r);
        }
      }
      for (int i = 0; i < todo.size(); i += ROW_BATCH) {
        List<byte[]> chunk = todo.subList(i, Math.min(todo.size(), i + ROW_BATCH));
        Map<ByteBuffer, List<byte[]>> held = KeyMap.read(fence, peerId, chunk);
        // A row the key map holds nowhere is written whole wherever its columns place it (or is
        // refused): read whole at once, its bound columns from that read, one read instead of two.
        // A wide one's capped read may lack them: its bound columns are read too.
        Map<ByteBuffer, Result> whole = readWhole(chunk, r -> held.get(ByteBuffer.wrap(r)) == null);
        List<byte[]> boundRead = new ArrayList<>();
        for (byte[] row : chunk) {
          Result w = whole.get(ByteBuffer.wrap(row));
          if (w == null || wide(w)) {
            boundRead.add(row);
          }
        }
        Result[] read = boundRead.isEmpty() ? new Result[0] : source.get(boundGets(boundRead));
        Map<ByteBuffer, Result> columns = new HashMap<>(whole);
        for (int j = 0; j < boundRead.size(); j++) {
          columns.put(ByteBuffer.wrap(boundRead.get(j)), read[j]);
        }
        Map<ByteBuffer, Outcome> outcomes = new LinkedHashMap<>();
        for (byte[] row : chunk) {
          Result bound = columns.get(ByteBuffer.wrap(row));
          ColumnValues values = (f, q) -> bound.getValue(Bytes.toBytes(f), Bytes.toBytes(q));
          outcomes.put(ByteBuffer.wrap(row), outcome(row, values, held.get(ByteBuffer.wrap(row))));
        }
        Map<ByteBuffer, List<Mutation>> rewritten = rewrite(outcomes, whole);
        for (byte[] row : chunk) {
          ByteBuffer k = ByteBuffer.wrap(row);
          placed.put(k, decide(row, outcomes.get(k), rewritten.get(k)));
        }
      }
    }

    /**
     * Where a row {@link #place placed} goes; what must reach the target before its cells is given
     * the first time only.
     */
    Placement take(byte[] row) throws IOException {
      ByteBuffer k = ByteBuffer.wrap(row);
      Placement p = placed.get(k);
      if (p == null) {
        place(List.of(row));
        p = placed.get(k);
      }
      if (!p.before().isEmpty()) {
        placed.put(k, new Placement(p.keys(), List.of(), p.refused()));
      }
      return p;
    }

    @Override
    public void close() throws IOException {
      try (Table a = source;
          Table b = fence) {
        // both closed
      }
    }

    /**
     * The source rows this batch placed (or found gone) that the stream had refused: their refusals
     * are taken back ({@link Fences#unrefused}) once the target holds them.
     */
    List<byte[]> unrefused() {
      return unrefused;
    }

    /** The key map records of the rows this batch moved, to write once the target holds them. */
    List<Put> records() {
      List<Put> out = new ArrayList<>();
      records.forEach((row, keys) -> out.add(KeyMap.record(peerId, bytes(row), keys)));
      return out;
    }

    /**
     * @param rewritten a moved row as the source reads it now, under its new key
     */
    private Placement decide(byte[] row, Outcome o, List<Mutation> rewritten) throws IOException {
      if (o.unrefuse()) {
        unrefused.add(row);
      }
      if (o instanceof Stay stay) {
        return new Placement(List.of(stay.key()), List.of(), null);
      }
      if (o instanceof Move move) {
        List<Mutation> before = new ArrayList<>(rewritten);
        before.addAll(retire(move.retired()));
        records.put(ByteBuffer.wrap(row), List.of(move.key()));
        // The source read now holds every edit of this batch already: written with the row, they
        // are not written again (which would cost a round trip a row: TargetWriter).
        return new Placement(List.of(), before, null);
      }
      Unplaced u = (Unplaced) o;
      if (!readable(row)) {
        if (u.unrefuseIfGone()) {
          unrefused.add(row); // gone: the target lacks nothing of it any more
        }
        return new Placement(u.held(), List.of(), null); // deleted: its markers go where it was
      }
      records.put(ByteBuffer.wrap(row), List.of());
      return new Placement(
          List.of(),
          retire(u.held()),
          u.reject().reason().name()
              + ": "
              + u.reject().detail()
              + " (the row still holds cells, so the stream can no longer place it in the"
              + " target; its cells there were retired. Give it a value the layout accepts and"
              + " the stream writes it again)");
    }

    /**
     * The rows that move, each as a read of the source returns it now, every version, under its new
     * key: one batched read, at most {@value EditMapper#WIDE_ROW_PIECE} cells of a family a row; a
     * row that reaches that is read again in pieces.
     */
    private Map<ByteBuffer, List<Mutation>> rewrite(
        Map<ByteBuffer, Outcome> outcomes, Map<ByteBuffer, Result> readAlready) throws IOException {
      List<byte[]> moved = new ArrayList<>();
      outcomes.forEach(
          (k, o) -> {
            if (o instanceof Move) {
              moved.add(bytes(k));
            }
          });
      Map<ByteBuffer, Result> whole = new HashMap<>(readAlready);
      whole.putAll(readWhole(moved, r -> !readAlready.containsKey(ByteBuffer.wrap(r))));
      Map<ByteBuffer, List<Mutation>> out = new HashMap<>();
      for (byte[] row : moved) {
        byte[] key = ((Move) outcomes.get(ByteBuffer.wrap(row))).key();
        Result read = whole.get(ByteBuffer.wrap(row));
        if (wide(read)) {
          out.put(ByteBuffer.wrap(row), rewrite(row, key));
        } else {
          Put put = new Put(key);
          for (Cell c : read.rawCells()) {
            put.add(EditMapper.moved(c, key));
          }
          out.put(ByteBuffer.wrap(row), put.isEmpty() ? List.of() : List.of(put));
        }
      }
      return out;
    }

    /**
     * The rows of {@code rows} that {@code which} picks, as a read of the source returns them now,
     * every version, at most {@value EditMapper#WIDE_ROW_PIECE} cells of a family a row: one
     * batched read.
     */
    private Map<ByteBuffer, Result> readWhole(
        List<byte[]> rows, java.util.function.Predicate<byte[]> which) throws IOException {
      List<byte[]> picked = new ArrayList<>();
      List<Get> gets = new ArrayList<>();
      for (byte[] row : rows) {
        if (which.test(row)) {
          picked.add(row);
          gets.add(
              new Get(row)
                  .readAllVersions()
                  .setMaxResultsPerColumnFamily(EditMapper.WIDE_ROW_PIECE));
        }
      }
      Map<ByteBuffer, Result> out = new HashMap<>();
      if (gets.isEmpty()) {
        return out;
      }
      Result[] read = source.get(gets);
      for (int i = 0; i < picked.size(); i++) {
        out.put(ByteBuffer.wrap(picked.get(i)), read[i]);
      }
      return out;
    }

    /** Whether a read capped at {@value EditMapper#WIDE_ROW_PIECE} cells a family may lack some. */
    private static boolean wide(Result r) {
      Map<ByteBuffer, Integer> perFamily = new HashMap<>();
      for (Cell c : r.rawCells()) {
        ByteBuffer f = ByteBuffer.wrap(CellUtil.cloneFamily(c));
        if (perFamily.merge(f, 1, Integer::sum) >= EditMapper.WIDE_ROW_PIECE) {
          return true;
        }
      }
      return false;
    }

    /** A wide row as a read of the source returns it now, every version, under {@code key}. */
    private List<Mutation> rewrite(byte[] row, byte[] key) throws IOException {
      List<Mutation> out = new ArrayList<>();
      Scan scan =
          new Scan()
              .withStartRow(row)
              .withStopRow(row, true)
              .readAllVersions()
              .setBatch(EditMapper.WIDE_ROW_PIECE);
      try (ResultScanner rs = source.getScanner(scan)) {
        for (Result piece : rs) {
          Put put = new Put(key);
          for (Cell c : piece.rawCells()) {
            put.add(EditMapper.moved(c, key));
          }
          out.add(put);
        }
      }
      return out;
    }

    private boolean readable(byte[] row) throws IOException {
      return !source.get(new Get(row).setFilter(new FirstKeyOnlyFilter())).isEmpty();
    }
  }

  /**
   * What becomes of one source row, from its bound columns' values now and what the key map records
   * of it. Pure: the reads and writes it leads to are {@link Batch}'s.
   */
  sealed interface Outcome {
    /** Whether a refusal the stream recorded for the row is to be taken back. */
    default boolean unrefuse() {
      return false;
    }
  }

  /** Held under its key now, and only there: its edits go there. */
  record Stay(byte[] key) implements Outcome {}

  /**
   * Held elsewhere or nowhere: written whole under {@code key}, then each of {@code retired}
   * cleared.
   */
  record Move(byte[] key, List<byte[]> retired, boolean unrefuse) implements Outcome {}

  /**
   * No key now: a row still readable is refused and every key of {@code held} retired; a deleted
   * row's edits go under every key of {@code held}.
   *
   * @param unrefuseIfGone whether the stream had refused it, which a deleted row takes back
   */
  record Unplaced(KeyReject reject, List<byte[]> held, boolean unrefuseIfGone) implements Outcome {}

  /**
   * Decides a row.
   *
   * @param recorded the keys the key map holds the row under; null when it has nothing of it, empty
   *     when the stream recorded it nowhere (refused, or deleted while refused)
   */
  Outcome outcome(byte[] row, ColumnValues now, List<byte[]> recorded) {
    List<byte[]> held = recorded == null ? List.of() : recorded;
    boolean wasRefused = recorded != null && recorded.isEmpty();
    byte[] key;
    try {
      key = mapping.map(row, now);
    } catch (KeyReject r) {
      return new Unplaced(r, held, wasRefused);
    }
    if (held.size() == 1 && Arrays.equals(held.get(0), key)) {
      return new Stay(key);
    }
    List<byte[]> retired = new ArrayList<>();
    for (byte[] old : held) {
      if (!Arrays.equals(old, key)) {
        retired.add(old);
      }
    }
    return new Move(key, retired, wasRefused);
  }

  /** Family delete markers that clear every key of {@code keys}. */
  private List<Mutation> retire(List<byte[]> keys) {
    List<Mutation> out = new ArrayList<>();
    for (byte[] old : keys) {
      Delete d = new Delete(old);
      for (byte[] f : families) {
        d.addFamily(f, RETIRE_ALL);
      }
      out.add(d);
    }
    return out;
  }

  /** The rows {@code cells} name (WAL markers left out), in order, each once. */
  static List<byte[]> rowsOf(List<Cell> cells) {
    Map<ByteBuffer, byte[]> rows = new LinkedHashMap<>();
    for (Cell c : cells) {
      if (!WALEdit.isMetaEditFamily(c)) {
        byte[] r = CellUtil.cloneRow(c);
        rows.putIfAbsent(ByteBuffer.wrap(r), r);
      }
    }
    return new ArrayList<>(rows.values());
  }

  private List<Get> boundGets(List<byte[]> rows) {
    List<Get> out = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      Get g = new Get(r);
      for (byte[][] c : boundColumns) {
        g.addColumn(c[0], c[1]);
      }
      out.add(g);
    }
    return out;
  }

  private static byte[] bytes(ByteBuffer b) {
    return Arrays.copyOfRange(b.array(), b.arrayOffset() + b.position(), b.limit());
  }
}
