package io.rekey.stream.endpoint;

import io.rekey.index.entries.EntryChanges;
import io.rekey.index.entries.IndexEntries;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Keeps the indexes of the stream's target table: once a batch's writes are in the target, each
 * target row they touched is read again (the index's columns) with its row record, and what {@link
 * EntryChanges} gives is written, as an index update does for a row in its window: the row's
 * entries as it holds them now, a marker on every entry its record lists that it no longer gives (a
 * new value, a moved or deleted row), and its record.
 *
 * <p>Reading the row as it is, not applying the batch's cells, makes a batch shipped twice, or a
 * row read ahead of its later edits, converge: the row's last batch reads it after its last edit.
 * Only one batch at a time may do so for a row, so a stream that keeps an index is serial.
 *
 * <p>The stamps: an index's cells must be newer than those they replace, and a retiring marker must
 * hide them. The endpoints of a stream run on every region server, each with its clock, so a row's
 * cells are stamped at the later of this server's clock and one past its record's newest version,
 * and the record is written with every change: its time is the row's last stamp.
 */
final class IndexKeeper {
  /** Target rows read again at a time (two batched reads). */
  private static final int CHUNK = 1_000;

  private record Kept(TableName table, IndexEntries entries, EntryChanges changes) {}

  private final List<Kept> indexes = new ArrayList<>();

  IndexKeeper(List<StreamSettings.StreamedIndex> streamed) {
    for (StreamSettings.StreamedIndex i : streamed) {
      IndexEntries entries = i.shape().entries();
      indexes.add(new Kept(i.table(), entries, new EntryChanges(entries)));
    }
  }

  boolean isEmpty() {
    return indexes.isEmpty();
  }

  /**
   * Brings every index up to date with {@code rows} of {@code table} as they are now.
   *
   * @param now this server's clock
   * @return the rows an index rejected, {@code "index TABLE ROW<tab>REASON"} (row printable)
   */
  List<String> keep(Connection target, TableName table, Collection<byte[]> rows, long now)
      throws IOException {
    List<String> rejected = new ArrayList<>();
    List<byte[]> all = new ArrayList<>(rows);
    try (Table read = target.getTable(table)) {
      for (Kept index : indexes) {
        try (Table out = target.getTable(index.table())) {
          for (int from = 0; from < all.size(); from += CHUNK) {
            List<byte[]> chunk = all.subList(from, Math.min(all.size(), from + CHUNK));
            keep(index, read, out, chunk, now, rejected);
          }
        }
      }
    }
    return rejected;
  }

  private static void keep(
      Kept index, Table read, Table out, List<byte[]> rows, long now, List<String> rejected)
      throws IOException {
    List<Get> current = new ArrayList<>(rows.size());
    List<Get> records = new ArrayList<>(rows.size());
    for (byte[] row : rows) {
      current.add(index.entries().current(row));
      records.add(index.entries().rowRecordGet(row));
    }
    Result[] held = read.get(current);
    Result[] recorded = out.get(records);
    List<Put> puts = new ArrayList<>();
    List<Delete> deletes = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      byte[] row = rows.get(i);
      long stamp = Math.max(now, newest(recorded[i]) + 1);
      EntryChanges.Change change =
          index.changes().of(row, held[i], index.entries().rowRecord(recorded[i]), stamp, true);
      if (change.rejected() != null) {
        rejected.add(
            "index "
                + index.table().getNameAsString()
                + " "
                + Bytes.toStringBinary(row)
                + "\t"
                + change.rejected());
      }
      for (byte[] record : change.records()) {
        mutations(record, puts, deletes);
      }
    }
    // Every cell carries its own stamp: which of the two lands first does not change a read.
    out.put(puts);
    out.delete(deletes);
  }

  /** The time of a row record's newest version, or 0 when it has none. */
  private static long newest(Result record) {
    return record.isEmpty() ? 0 : record.rawCells()[0].getTimestamp();
  }

  /** A record's cells (one row) as a Put and a Delete. */
  private static void mutations(byte[] record, List<Put> puts, List<Delete> deletes)
      throws IOException {
    Put put = null;
    Delete delete = null;
    for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
      KeyValue cell = ShuffleCell.asKeyValue(record, at);
      if (CellUtil.isDelete(cell)) {
        delete = delete == null ? new Delete(CellUtil.cloneRow(cell)) : delete;
        delete.add(cell);
      } else {
        put = put == null ? new Put(CellUtil.cloneRow(cell)) : put;
        put.add(cell);
      }
    }
    add(puts, put);
    add(deletes, delete);
  }

  private static <M extends Mutation> void add(List<M> to, M m) {
    if (m != null) {
      to.add(m);
    }
  }
}
