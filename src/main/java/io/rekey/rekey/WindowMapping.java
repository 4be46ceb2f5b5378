package io.rekey.rekey;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where the changes one source row had in a sync window, {@code [from, to)}, go in the target: the
 * row-level logic of {@code rekey sync}, plain Java over cells (tested without a cluster).
 *
 * <p>When the new key depends on the old key alone, every cell of the window (Puts and every kind
 * of delete marker, with its timestamp) goes to the row's one new key, and the target hides exactly
 * what the source hides. When it also depends on a column ({@code ; sender = m:sender}), the row's
 * key can change in the window: the key the row had at the window's start and the key it has at its
 * end are worked out from the row's stored history (every version and marker below {@code to}),
 * read raw. A row whose key changed is written whole under its new key, and each cell it held under
 * its old key is deleted there, version by version (so nothing that another row writes to that key
 * at another time is hidden). A row whose key before the window cannot be known any more (the bound
 * column's older value was compacted away, or the family keeps one version) is rejected with that
 * reason: the target may still hold it under its old key. A row that still holds cells at the
 * window's end but can no longer be mapped (its bound column was deleted, or now holds a value the
 * layout refuses) is rejected with the layout's reason, and every key the target may hold it under
 * is retired as for a move: the target holds no stale copy of it, and the verdicts count it as a
 * source row that cannot be mapped.
 */
public final class WindowMapping implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The reject reason of a row whose key before the window is no longer known. */
  public static final String OLD_KEY_UNKNOWN = "OLD_KEY_UNKNOWN";

  private final KeyMapping mapping;
  private final long from;
  private final long to;
  private final boolean keyUsesColumns;

  /**
   * @param from the window's first timestamp (the watermark)
   * @param to the window's end, exclusive
   */
  public WindowMapping(KeyMapping mapping, long from, long to) {
    this.mapping = mapping;
    this.from = from;
    this.to = to;
    this.keyUsesColumns = keyUsesColumns(mapping);
  }

  /**
   * Whether a row's new key depends on its columns, so that a row can move from key to key (and
   * back) as they change.
   */
  public static boolean keyUsesColumns(KeyMapping mapping) {
    for (ColumnBinding c : mapping.source().columns()) {
      if (mapping.target().inputFields().contains(c.field().name())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a row's new key depends on its columns: then {@link #decide} needs its history. */
  public boolean needsHistory() {
    return keyUsesColumns;
  }

  /**
   * The version delete marker under {@code oldKey} that retires {@code put}, a Put the row stored
   * below the window's end: the target may hold it there (the copy wrote the row as of its
   * snapshot, which can be inside the window).
   */
  public static Cell retiring(byte[] oldKey, Cell put) {
    return new KeyValue(
        oldKey,
        CellUtil.cloneFamily(put),
        CellUtil.cloneQualifier(put),
        put.getTimestamp(),
        KeyValue.Type.Delete);
  }

  /**
   * What {@link #decide} needs of a row's stored cells below the window's end, read raw.
   *
   * @param keyCells the cells its key depends on ({@link CellVisibility#keyCells}), in order
   * @param storedBefore whether any cell is stamped before the window
   * @param visible whether a normal read returns any cell of it
   */
  public record History(Cell[] keyCells, boolean storedBefore, boolean visible) {}

  /** The history of a row from its stored cells, raw, in a read's order (in pieces or not). */
  public History history(Iterator<Cell> stored) {
    Predicate<Cell> bound = CellVisibility.keyCells(mapping);
    CellVisibility.RawRows reads = new CellVisibility.RawRows(Map.of());
    List<Cell> keyCells = new ArrayList<>();
    boolean before = false;
    boolean visible = false;
    while (stored.hasNext()) {
      Cell c = stored.next();
      before |= c.getTimestamp() < from;
      visible |= reads.counts(c) && c.getType() == Cell.Type.Put;
      if (bound.test(c)) {
        keyCells.add(c);
      }
    }
    return new History(keyCells.toArray(new Cell[0]), before, visible);
  }

  /** What becomes of one row's window, whether or not the row is held whole. */
  public sealed interface Decision {}

  /** The window's cells go to {@code key}. */
  public record Write(byte[] key) implements Decision {}

  /**
   * The row's key changed: every stored cell of it goes to {@code newKey}, and each of its Puts is
   * retired ({@link #retiring}) under each of {@code oldKeys}.
   */
  public record Move(byte[] newKey, List<byte[]> oldKeys) implements Decision {}

  /** The row cannot be written; its Puts are retired under each of {@code oldKeys}. */
  public record Refuse(String reason, String detail, List<byte[]> oldKeys) implements Decision {}

  /**
   * Decides one row.
   *
   * @param row the source row key
   * @param history the row's history ({@link #history}); null when {@link #needsHistory()} is false
   */
  public Decision decide(byte[] row, History history) {
    if (!keyUsesColumns) {
      try {
        return new Write(mapping.map(row, ColumnValues.NONE));
      } catch (KeyReject r) {
        return new Refuse(r.reason().name(), r.detail(), List.of());
      }
    }
    Cell[] keyCells = history.keyCells();
    Key before = keyAt(row, keyCells, from);
    Key after = keyAt(row, keyCells, to);
    if (after.key != null && (before.key != null || !history.storedBefore())) {
      List<byte[]> old = earlierKeys(row, keyCells, before, after.key);
      return old.isEmpty() ? new Write(after.key) : new Move(after.key, old);
    }
    if (after.key != null) {
      return new Refuse(
          OLD_KEY_UNKNOWN,
          "the row had cells before the window ["
              + from
              + ", "
              + to
              + ") but "
              + boundColumns()
              + " has no value stored from before it (a family keeping fewer versions, or a"
              + " compaction, removed it), so the key the target holds it under is unknown. 'rekey"
              + " repair' (or 'rekey sync --final --repair') deletes what is left under that key"
              + " and writes the row where it now maps ("
              + Bytes.toStringBinary(after.key)
              + ")",
          List.of());
    }
    if (history.visible()) {
      // The row lives on without a key: it leaves every key it had, and is counted as rejected.
      return new Refuse(
          after.reject.reason().name(),
          after.reject.detail()
              + " (the row still holds cells, so it can no longer be placed in the target; its"
              + " cells there were retired. Give it a value the layout accepts and the next sync"
              + " writes it, or acknowledge it at the switch with --accept-unmapped)",
          earlierKeys(row, keyCells, before, null));
    }
    if (before.key != null) {
      // Deleted in the window: the markers go where the row lived.
      return new Write(before.key);
    }
    // No key before or after: the row was written and deleted within the window, or never had its
    // bound columns. Its cells go to the key its newest bound values give, masked or not.
    Key latest = keyAt(row, keyCells, Long.MAX_VALUE, false);
    if (latest.key != null) {
      return new Write(latest.key);
    }
    return new Refuse(after.reject.reason().name(), after.reject.detail(), List.of());
  }

  private String boundColumns() {
    List<String> names = new ArrayList<>();
    for (ColumnBinding c : mapping.source().columns()) {
      if (mapping.target().inputFields().contains(c.field().name())) {
        names.add(c.family() + ":" + c.qualifier());
      }
    }
    return String.join(", ", names);
  }

  /**
   * The keys other than {@code now} that the target may hold the row under: the key it had at the
   * window's start, and the key it had after each change of a bound column within the window. The
   * latter matter where the copy overlaps the window (its snapshot is taken up to the safety lag
   * after the first window's start, and it wrote each row under the key it had then), and are
   * harmless elsewhere: a key the target never held gets markers that hide nothing.
   */
  private List<byte[]> earlierKeys(byte[] row, Cell[] history, Key before, byte[] now) {
    List<byte[]> out = new ArrayList<>();
    addIfOther(out, before.key, now);
    for (Cell c : history) {
      long t = c.getTimestamp();
      if (t >= from && t < to && bindsKey(c)) {
        addIfOther(out, keyAt(row, history, t + 1).key, now);
      }
    }
    return out;
  }

  private static void addIfOther(List<byte[]> keys, byte[] key, byte[] now) {
    if (key == null || Arrays.equals(key, now)) {
      return;
    }
    for (byte[] k : keys) {
      if (Arrays.equals(k, key)) {
        return;
      }
    }
    keys.add(key);
  }

  /** Whether {@code c} (a Put or a marker) can change a bound column's visible value. */
  private boolean bindsKey(Cell c) {
    for (ColumnBinding b : mapping.source().columns()) {
      if (mapping.target().inputFields().contains(b.field().name())
          && CellUtil.matchingFamily(c, Bytes.toBytes(b.family()))
          && (c.getQualifierLength() == 0
              || CellUtil.matchingQualifier(c, Bytes.toBytes(b.qualifier())))) {
        return true;
      }
    }
    return false;
  }

  /** The new key, or why there is none. */
  private record Key(byte[] key, KeyReject reject) {}

  private Key keyAt(byte[] row, Cell[] history, long time) {
    return keyAt(row, history, time, true);
  }

  /**
   * The row's new key as of {@code time}: from its bound columns' values visible then (the newest
   * Put below {@code time} that no marker below {@code time} hides), or with {@code masks} false
   * the newest Put below {@code time} whatever hides it.
   */
  private Key keyAt(byte[] row, Cell[] history, long time, boolean masks) {
    try {
      return new Key(mapping.map(row, CellVisibility.valuesAsOf(history, time, masks)), null);
    } catch (KeyReject r) {
      return new Key(null, r);
    }
  }
}
