package io.rekey.stream.endpoint;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyInverse;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * Turns the cells of one WAL edit of the source into what the target must receive: each cell under
 * its row's new key, with its own timestamp and type (a Put, or a delete marker of any kind): one
 * {@link Put} of a target row's cells and then one {@link Delete} of its markers. Applying the
 * result twice leaves the target as once: a cell is identified by its row, column, timestamp and
 * type, so writing it again writes the same cell. Under HBase's default version semantics the order
 * in which they are applied does not matter either: a marker hides the cells at or below its
 * timestamp whenever either was written, so the rows can go out as plain batches, as HBase's own
 * replication sink sends them. Under {@code NEW_VERSION_BEHAVIOR} a marker hides only what was
 * written before it (or with it, in one edit): there the stream's peer is serial and the endpoint
 * writes each row's mutations in the order given ({@link TargetWriter}), the Put before the Delete,
 * and a batch shipped again is written again in its order, so it ends as once.
 *
 * <p>A key bound to a column needs the row's current value of that column, which an edit that did
 * not change it does not carry: there each source row is placed by {@link BoundRows} (from the
 * source's row now and the stream's {@link KeyMap}), and moved whole when its key changed. A
 * reverse stream maps the other way, each new key back to its old one ({@link KeyInverse}).
 */
public final class EditMapper {
  /** The most cells of one row read or written at once when a row is moved whole. */
  static final int WIDE_ROW_PIECE = 1_000;

  /** Where a source row goes: the target keys its cells are written under. */
  @FunctionalInterface
  interface Placer {
    BoundRows.Placement of(byte[] sourceRow) throws IOException;
  }

  /** Where a source row goes when its key is made from the row key alone. */
  @FunctionalInterface
  private interface RowKey {
    byte[] of(byte[] sourceRow) throws KeyReject;
  }

  private final RowKey rowKey;
  private final KeyMapping bound;

  /** The forward mapper of a migration: old keys to new. */
  public EditMapper(KeyMapping mapping) {
    this.rowKey = row -> mapping.map(row, ColumnValues.NONE);
    this.bound = keyUsesColumns(mapping) ? mapping : null;
    if (bound != null) {
      mapping.rowsBack(); // the key map is seeded from the copy's rows, read back to their source
    }
  }

  private EditMapper(KeyInverse inverse) {
    this.rowKey = inverse::oldKey;
    this.bound = null;
  }

  /**
   * The mapper a stream's settings name: forward, or for a {@link StreamSettings#reverse} stream
   * the migration's mapping run backwards (the migrated table's rows back under their old keys).
   *
   * @throws IllegalArgumentException when the layouts cannot be streamed that way (a new key bound
   *     to a column that does not keep the old key's fields; backwards, a new key that does not
   *     keep what the old key is made of, or a bound column)
   */
  public static EditMapper of(StreamSettings settings) {
    KeyMapping mapping = settings.mapping();
    return settings.reverse() ? new EditMapper(mapping.inverse()) : new EditMapper(mapping);
  }

  /**
   * Whether a row's new key depends on one of its columns, so that an edit does not say where its
   * row lives: then rows are placed by {@link BoundRows} and the stream keeps a {@link KeyMap}.
   */
  public static boolean keyUsesColumns(KeyMapping mapping) {
    for (ColumnBinding c : mapping.source().columns()) {
      if (mapping.target().inputFields().contains(c.field().name())) {
        return true;
      }
    }
    return false;
  }

  /** The mapping when rows must be placed by {@link BoundRows}, else null. */
  KeyMapping bound() {
    return bound;
  }

  /**
   * The mapped mutations of {@code cells} (an edit's cells; WAL markers are skipped), and the rows
   * that cannot be mapped.
   *
   * @param mutations in order: for each source row the edit names, what must reach the target
   *     before its cells (a moved row), then for each target row, in the order the edit first names
   *     it, a Put of its cells and a Delete of its markers (either left out when it has none)
   * @param rejected one line per source row the mapping refuses: the row and the reason
   * @param rejectedCells the cells of those rows
   * @param stampedBefore the Puts stamped before the edit was logged, which a delete marker one
   *     table compacted away and the other did not may hide in one only ({@link HiddenCells})
   * @param bulkLoads the edit's markers of bulk loads into the source, whose cells are in store
   *     files, not in the log ({@link BulkLoadedFiles})
   */
  public record Mapped(
      List<Mutation> mutations,
      List<String> rejected,
      long rejectedCells,
      List<HiddenCells.Stamped> stampedBefore,
      List<Cell> bulkLoads) {}

  /**
   * Maps an edit's cells whose rows' keys are made from the row key alone.
   *
   * @param loggedAt when the edit was logged (its WAL key's write time), epoch millis
   */
  public Mapped map(List<Cell> cells, long loggedAt) throws IOException {
    return map(
        cells,
        loggedAt,
        row -> {
          try {
            return new BoundRows.Placement(List.of(rowKey.of(row)), List.of(), null);
          } catch (KeyReject e) {
            return new BoundRows.Placement(List.of(), List.of(), e.toString());
          }
        });
  }

  /** Maps an edit's cells, each source row's under the keys {@code placer} gives. */
  Mapped map(List<Cell> cells, long loggedAt, Placer placer) throws IOException {
    // A client's multi-row put is one edit: tens of thousands of rows, found again by key.
    Map<ByteBuffer, TargetRow> rows = new LinkedHashMap<>();
    List<Object> order = new ArrayList<>();
    List<HiddenCells.Stamped> stamped = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    List<Cell> bulkLoads = new ArrayList<>();
    long rejectedCells = 0;
    byte[] sourceRow = null;
    List<TargetRow> current = List.of();
    boolean refused = false;
    for (Cell cell : cells) {
      if (WALEdit.isMetaEditFamily(cell)) {
        if (BulkLoadedFiles.isMarker(cell)) {
          bulkLoads.add(cell);
        }
        continue;
      }
      if (sourceRow == null || !CellUtil.matchingRows(cell, sourceRow)) {
        sourceRow = CellUtil.cloneRow(cell);
        BoundRows.Placement p = placer.of(sourceRow);
        order.addAll(p.before());
        refused = p.refused() != null;
        if (refused) {
          rejected.add(Bytes.toStringBinary(sourceRow) + "\t" + p.refused());
        }
        current = new ArrayList<>(p.keys().size());
        for (byte[] key : p.keys()) {
          TargetRow r = rows.get(ByteBuffer.wrap(key));
          if (r == null) {
            r = new TargetRow(key);
            rows.put(ByteBuffer.wrap(key), r);
            order.add(r);
          }
          current.add(r);
        }
      }
      if (current.isEmpty()) {
        // Refused, or nothing to write: a row deleted where the target never held it, or one
        // moved whole by this very batch, its edits included.
        if (refused) {
          rejectedCells++;
        }
        continue;
      }
      for (TargetRow r : current) {
        add(r, cell);
      }
      if (!CellUtil.isDelete(cell.getTypeByte()) && HiddenCells.stampedBefore(cell, loggedAt)) {
        stamped.add(
            new HiddenCells.Stamped(
                sourceRow,
                current.get(0).row,
                CellUtil.cloneFamily(cell),
                CellUtil.cloneQualifier(cell),
                cell.getTimestamp()));
      }
    }
    List<Mutation> out = new ArrayList<>(order.size() + rows.size());
    for (Object o : order) {
      if (o instanceof TargetRow r) {
        if (r.put != null) {
          out.add(r.put);
        }
        if (r.delete != null) {
          out.add(r.delete);
        }
      } else {
        out.add((Mutation) o);
      }
    }
    return new Mapped(out, rejected, rejectedCells, stamped, bulkLoads);
  }

  private static void add(TargetRow r, Cell cell) throws IOException {
    KeyValue moved = moved(cell, r.row);
    if (CellUtil.isDelete(cell.getTypeByte())) {
      r.delete().add(moved);
    } else {
      r.put().add(moved);
    }
  }

  /** One target row's cells and markers, gathered from an edit. */
  private static final class TargetRow {
    private final byte[] row;
    private Put put;
    private Delete delete;

    TargetRow(byte[] row) {
      this.row = row;
    }

    Put put() {
      if (put == null) {
        put = new Put(row);
      }
      return put;
    }

    Delete delete() {
      if (delete == null) {
        delete = new Delete(row);
      }
      return delete;
    }
  }

  /** The cell under {@code row}: the same family, qualifier, timestamp, type and value. */
  static KeyValue moved(Cell cell, byte[] row) {
    return new KeyValue(
        row,
        CellUtil.cloneFamily(cell),
        CellUtil.cloneQualifier(cell),
        cell.getTimestamp(),
        KeyValue.Type.codeToType(cell.getTypeByte()),
        CellUtil.cloneValue(cell));
  }
}
