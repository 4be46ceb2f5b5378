package io.rekey.stream.endpoint;

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
 * <p>Only layouts whose target key is made from the row key alone: a key bound to a column needs
 * the row's current value of that column, which an edit that did not change it does not carry. A
 * reverse stream maps the other way, each new key back to its old one ({@link KeyInverse}).
 */
public final class EditMapper {
  /** Where a source row goes: its key in the target. */
  @FunctionalInterface
  private interface RowKey {
    byte[] of(byte[] sourceRow) throws KeyReject;
  }

  private final RowKey rowKey;

  /**
   * The forward mapper of a migration: old keys to new.
   *
   * @throws IllegalArgumentException when the source key binds a column
   */
  public EditMapper(KeyMapping mapping) {
    if (!mapping.source().columns().isEmpty()) {
      throw new IllegalArgumentException(
          "the source key binds columns ("
              + mapping.source().canonicalSpec()
              + "); a stream re-keys only layouts made from the row key alone");
    }
    this.rowKey = row -> mapping.map(row, ColumnValues.NONE);
  }

  private EditMapper(KeyInverse inverse) {
    this.rowKey = inverse::oldKey;
  }

  /**
   * The mapper a stream's settings name: forward, or for a {@link StreamSettings#reverse} stream
   * the migration's mapping run backwards (the migrated table's rows back under their old keys).
   *
   * @throws IllegalArgumentException when the layouts cannot be streamed that way (a bound column;
   *     backwards, a new key that does not keep what the old key is made of)
   */
  public static EditMapper of(StreamSettings settings) {
    KeyMapping mapping = settings.mapping();
    return settings.reverse() ? new EditMapper(mapping.inverse()) : new EditMapper(mapping);
  }

  /**
   * The mapped mutations of {@code cells} (an edit's cells; WAL markers are skipped), and the rows
   * that cannot be mapped.
   *
   * @param mutations for each target row, in the order the edit first names it, a Put of its cells
   *     and a Delete of its markers (either left out when it has none)
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
   * Maps an edit's cells.
   *
   * @param loggedAt when the edit was logged (its WAL key's write time), epoch millis
   */
  public Mapped map(List<Cell> cells, long loggedAt) throws IOException {
    // A client's multi-row put is one edit: tens of thousands of rows, found again by key.
    Map<ByteBuffer, TargetRow> rows = new LinkedHashMap<>();
    List<HiddenCells.Stamped> stamped = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    List<Cell> bulkLoads = new ArrayList<>();
    long rejectedCells = 0;
    byte[] sourceRow = null;
    TargetRow current = null;
    for (Cell cell : cells) {
      if (WALEdit.isMetaEditFamily(cell)) {
        if (BulkLoadedFiles.isMarker(cell)) {
          bulkLoads.add(cell);
        }
        continue;
      }
      if (sourceRow == null || !CellUtil.matchingRows(cell, sourceRow)) {
        sourceRow = CellUtil.cloneRow(cell);
        try {
          byte[] targetRow = rowKey.of(sourceRow);
          current = rows.computeIfAbsent(ByteBuffer.wrap(targetRow), k -> new TargetRow(targetRow));
        } catch (KeyReject e) {
          current = null;
          rejected.add(Bytes.toStringBinary(sourceRow) + "\t" + e);
        }
      }
      if (current == null) {
        rejectedCells++;
        continue;
      }
      KeyValue moved = moved(cell, current.row);
      if (CellUtil.isDelete(cell.getTypeByte())) {
        current.delete().add(moved);
      } else {
        current.put().add(moved);
        if (HiddenCells.stampedBefore(cell, loggedAt)) {
          stamped.add(
              new HiddenCells.Stamped(
                  sourceRow,
                  current.row,
                  CellUtil.cloneFamily(cell),
                  CellUtil.cloneQualifier(cell),
                  cell.getTimestamp()));
        }
      }
    }
    List<Mutation> out = new ArrayList<>(rows.size());
    for (TargetRow r : rows.values()) {
      if (r.put != null) {
        out.add(r.put);
      }
      if (r.delete != null) {
        out.add(r.delete);
      }
    }
    return new Mapped(out, rejected, rejectedCells, stamped, bulkLoads);
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
