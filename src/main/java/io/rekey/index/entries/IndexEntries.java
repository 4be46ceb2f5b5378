package io.rekey.index.entries;

import io.rekey.index.entries.IndexShape.Column;
import io.rekey.keys.ColumnBinding;
import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyReject;
import io.rekey.write.ShuffleCell;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What a source row gives an index: the entries (one for the newest indexed cell, or one per
 * version), the cells each entry holds (a marker cell, so every entry is a row even without covered
 * columns, and the covered columns), and the row's record of its entries' keys ({@link RowRecord});
 * and how an update reads what changed ({@link #windowScan}, {@link #current}).
 *
 * <p>The indexed cell's timestamp is in the entry's key; the entry's cells carry the time of the
 * run that writes them (its start on the driver's clock, kept later than any earlier run's by
 * {@code RunState.nextStamp}; the stream keeps each row's later than its row record). So a rewrite
 * of an entry (a covered value changed, or a repair) is newer than what it replaces, and a delete
 * marker that a repair put on an entry's row hides only the cells written before it, never those of
 * a later run, even when the source row comes back with its old timestamps.
 */
public final class IndexEntries implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final byte[] EMPTY = new byte[0];

  /**
   * The time in a key field's entry: a key field has no cell, and its entry must not change when
   * other cells of the row do, or each change would make the row a second entry; so it is a
   * constant, and a field index's entries of one value sort by source key.
   */
  public static final long FIELD_TS = 0;

  /** Rows with at most this many cells are searched by walking them, not by binary search. */
  private static final int WALK_CELLS = 16;

  private final IndexShape definition;
  private final byte[] family;
  private final byte[] rowsFamily;
  private final byte[] marker;
  // The names as bytes once, not per row: the indexed column (or nulls), and per covered column
  // its family, qualifier and the qualifier it has in the index.
  private final byte[] columnFamily;
  private final byte[] columnQualifier;
  private final byte[][][] covered;
  // The columns the source key binds, family and qualifier.
  private final byte[][][] bound;
  // An entry's cells in the order HBase keeps them within a row (by qualifier): -1 is the marker,
  // i >= 0 the covered column covered[i].
  private final int[] cellOrder;

  public IndexEntries(IndexShape definition) {
    this.definition = definition;
    this.family = Bytes.toBytes(definition.family());
    this.rowsFamily = Bytes.toBytes(IndexShape.ROWS_FAMILY);
    this.marker = Bytes.toBytes(IndexShape.MARKER);
    Column column = definition.column();
    this.columnFamily = column == null ? null : Bytes.toBytes(column.family());
    this.columnQualifier = column == null ? null : Bytes.toBytes(column.qualifier());
    this.covered = new byte[definition.covered().size()][][];
    for (int i = 0; i < covered.length; i++) {
      Column c = definition.covered().get(i);
      covered[i] =
          new byte[][] {
            Bytes.toBytes(c.family()),
            Bytes.toBytes(c.qualifier()),
            Bytes.toBytes(IndexShape.coveredQualifier(c))
          };
    }
    this.bound =
        definition.key().source().columns().stream()
            .map(b -> new byte[][] {Bytes.toBytes(b.family()), Bytes.toBytes(b.qualifier())})
            .toArray(byte[][][]::new);
    List<Integer> order = new ArrayList<>();
    for (int i = -1; i < covered.length; i++) {
      order.add(i);
    }
    order.sort((a, b) -> Bytes.compareTo(entryQualifier(a), entryQualifier(b)));
    this.cellOrder = order.stream().mapToInt(Integer::intValue).toArray();
  }

  private byte[] entryQualifier(int cell) {
    return cell < 0 ? marker : covered[cell][2];
  }

  /**
   * The newest cell of a column. A read restricted to the index's columns gives rows of a few
   * cells, which a walk searches faster than Result's binary search (which builds a search key).
   */
  static Cell latest(Result row, byte[] family, byte[] qualifier) {
    Cell[] cells = row.rawCells();
    if (cells == null) {
      return null;
    }
    if (cells.length > WALK_CELLS) {
      return row.getColumnLatestCell(family, qualifier);
    }
    for (Cell c : cells) {
      // A column's versions come newest first.
      if (CellUtil.matchingColumn(c, family, qualifier)) {
        return c;
      }
    }
    return null;
  }

  /** One entry: its index row key, the indexed cell's timestamp and the source row. */
  public record Entry(byte[] key, long ts, byte[] sourceKey) {}

  /** One cell of an entry, in the index family. */
  public record EntryCell(byte[] qualifier, byte[] value) {}

  /**
   * The entries of a row; empty when the row has no indexed value.
   *
   * @throws KeyReject when an entry's key cannot be made (reason and detail for the rejects file)
   */
  public List<Entry> entries(Result row) throws KeyReject {
    return entries(row, row);
  }

  /**
   * The entries of {@code row}'s indexed cells, their keys' bound columns from {@code columnsFrom}
   * (the row as the source holds it now, where a time-window read gave only the cells that
   * changed).
   *
   * @throws KeyReject when an entry's key cannot be made
   */
  public List<Entry> entries(Result row, Result columnsFrom) throws KeyReject {
    byte[] sourceKey = row.getRow();
    List<Entry> out = new ArrayList<>(1);
    if (columnFamily != null && !definition.allVersions()) {
      Cell newest = latest(row, columnFamily, columnQualifier);
      if (newest != null) {
        out.add(entry(sourceKey, columnsFrom, CellUtil.cloneValue(newest), newest.getTimestamp()));
      }
      return out;
    }
    if (columnFamily != null) {
      List<Cell> cells = row.getColumnCells(columnFamily, columnQualifier);
      for (Cell c : cells) {
        out.add(entry(sourceKey, columnsFrom, CellUtil.cloneValue(c), c.getTimestamp()));
        if (!definition.allVersions()) {
          break;
        }
      }
      return out;
    }
    if (row.isEmpty()) {
      return out;
    }
    FieldValue v = definition.key().source().decodeField(sourceKey, definition.field());
    byte[] value =
        v instanceof FieldValue.BytesValue b
            ? b.bytes()
            : v.printable().getBytes(StandardCharsets.US_ASCII);
    out.add(entry(sourceKey, columnsFrom, value, FIELD_TS));
    return out;
  }

  private Entry entry(byte[] sourceKey, Result row, byte[] value, long ts) throws KeyReject {
    byte[] key =
        definition
            .key()
            .entryKey(
                sourceKey, (f, q) -> row.getValue(Bytes.toBytes(f), Bytes.toBytes(q)), value, ts);
    return new Entry(key, ts, sourceKey);
  }

  /**
   * An entry's cells ({@link #cells}) as one {@link ShuffleCell} record in HBase's order, at {@code
   * stamp} (the run's time), written straight from the row's cells.
   */
  public byte[] record(Entry entry, Result row, long stamp) {
    byte[][] qualifiers = new byte[cellOrder.length][];
    Cell[] values = new Cell[cellOrder.length];
    int n = 0;
    for (int cell : cellOrder) {
      if (cell < 0) {
        qualifiers[n++] = marker;
        continue;
      }
      Cell value = latest(row, covered[cell][0], covered[cell][1]);
      if (value != null) {
        qualifiers[n] = covered[cell][2];
        values[n++] = value;
      }
    }
    return ShuffleCell.puts(entry.key(), family, stamp, qualifiers, values, n);
  }

  /** The cells an entry holds: the marker, then each covered column the row has. */
  public List<EntryCell> cells(Result row) {
    List<EntryCell> out = new ArrayList<>(1 + covered.length);
    out.add(new EntryCell(marker, EMPTY));
    for (byte[][] c : covered) {
      Cell cell = latest(row, c[0], c[1]);
      if (cell != null) {
        out.add(new EntryCell(c[2], CellUtil.cloneValue(cell)));
      }
    }
    return out;
  }

  /** A source row's row record ({@link RowRecord}) as one {@link ShuffleCell}, at {@code stamp}. */
  public byte[] rowRecord(byte[] sourceKey, List<Entry> made, long stamp) {
    List<byte[]> keys = new ArrayList<>(made.size());
    for (Entry e : made) {
      keys.add(e.key());
    }
    return ShuffleCell.put(
        sourceKey, rowsFamily, RowRecord.QUALIFIER, stamp, RowRecord.encode(keys));
  }

  /**
   * A marker that hides every cell of the entry {@code key} stamped at or before {@code stamp}: an
   * entry retired, or the older cells of one written again without a covered column it had.
   */
  public byte[] hideEntry(byte[] key, long stamp) {
    return ShuffleCell.of(key, new KeyValue(key, family, null, stamp, KeyValue.Type.DeleteFamily));
  }

  /** A read of a row record's versions, the older one too ({@link RowRecord}). */
  public Get rowRecordGet(byte[] sourceKey) {
    try {
      return new Get(sourceKey).addColumn(rowsFamily, RowRecord.QUALIFIER).readVersions(2);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("two versions are a valid read", e);
    }
  }

  /** The record of a row read by {@link #rowRecordGet}. */
  public RowRecord.Versions rowRecord(Result read) {
    return RowRecord.versions(read, rowsFamily);
  }

  /**
   * Limits an update's scan of a window to what can change an entry, read raw so delete markers
   * come too: every version and marker of the index's columns, and the family-wide markers of their
   * families. An index on a key field reads whole rows: any cell can make its row exist or not.
   */
  public Scan windowScan(Scan scan) {
    scan.setRaw(true).readAllVersions();
    if (definition.column() == null) {
      return scan;
    }
    FilterList any = new FilterList(FilterList.Operator.MUST_PASS_ONE);
    Set<String> families = new LinkedHashSet<>();
    for (Column c : columns()) {
      families.add(c.family());
      any.addFilter(column(Bytes.toBytes(c.family()), Bytes.toBytes(c.qualifier())));
    }
    for (String f : families) {
      scan.addFamily(Bytes.toBytes(f));
      // Family-wide markers have no qualifier.
      any.addFilter(column(Bytes.toBytes(f), EMPTY));
    }
    return scan.setFilter(any);
  }

  private static FilterList column(byte[] family, byte[] qualifier) {
    return new FilterList(
        FilterList.Operator.MUST_PASS_ALL,
        new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(family)),
        new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(qualifier)));
  }

  /**
   * Whether a row's window cells ({@link #windowScan}) tell what the row holds now, so its entries
   * need no read of the source: no delete marker, a Put of every column the entries need (the
   * newest of them is then in the window), and one entry per row, not per version.
   */
  public boolean windowSuffices(Result window) {
    if (definition.allVersions() || window.isEmpty()) {
      return false;
    }
    for (Cell c : window.rawCells()) {
      if (CellUtil.isDelete(c.getTypeByte())) {
        return false;
      }
    }
    return hasIndexedColumn(window)
        && missingCovered(window).isEmpty()
        && !missesBoundColumn(window);
  }

  /**
   * A read of what a source row holds now, for its entries: the index's columns, and the row's
   * first cell, so a row that holds none of them (or an index on a key field) is still seen to
   * exist.
   */
  public Get current(byte[] sourceKey) {
    Get g = new Get(sourceKey);
    Scan s = restrictCountingEveryRow(new Scan());
    if (s.getFilter() != null) {
      g.setFilter(s.getFilter());
    } else {
      g.setFilter(new FirstKeyOnlyFilter());
    }
    if (definition.allVersions()) {
      g.readAllVersions();
    }
    return g;
  }

  /**
   * The entries of a row as Puts, for writers that go through the region servers.
   *
   * @param stamp the cells' timestamp: the time of the run that writes them
   * @throws KeyReject when an entry's key cannot be made
   */
  public List<Put> puts(Result row, long stamp) throws KeyReject {
    List<Entry> made = entries(row);
    if (made.isEmpty()) {
      return List.of();
    }
    List<EntryCell> cells = cells(row);
    List<Put> out = new ArrayList<>(made.size());
    for (Entry e : made) {
      Put p = new Put(e.key());
      for (EntryCell c : cells) {
        p.addColumn(family, c.qualifier(), stamp, c.value());
      }
      out.add(p);
    }
    return out;
  }

  /** The covered columns {@code row} does not hold (a time-window read may lack them). */
  public List<Column> missingCovered(Result row) {
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < covered.length; i++) {
      if (latest(row, covered[i][0], covered[i][1]) == null) {
        out.add(definition.covered().get(i));
      }
    }
    return out;
  }

  /**
   * Whether the row lacks a column its source key binds (a time-window read gives only the cells
   * that changed): its entry keys need them, so it is read again.
   */
  public boolean missesBoundColumn(Result row) {
    for (byte[][] b : bound) {
      if (latest(row, b[0], b[1]) == null) {
        return true;
      }
    }
    return false;
  }

  /** Whether the row holds the indexed column (always true of an index on a key field). */
  public boolean hasIndexedColumn(Result row) {
    return columnFamily == null || latest(row, columnFamily, columnQualifier) != null;
  }

  /**
   * Limits a scan to the columns the index needs (the indexed column, the covered ones, the ones
   * the source key binds), yet every row comes back, with at least its first cell: a row holding
   * none of the index's columns is still read and counted (as without the value, or rejected). A
   * filter, not the scan's column set, picks the columns, since that set would drop such rows. An
   * index on a key field with none of those columns reads whole rows.
   */
  public Scan restrictCountingEveryRow(Scan scan) {
    List<Column> columns = columns();
    if (columns.isEmpty()) {
      return versions(scan);
    }
    FilterList any = new FilterList(FilterList.Operator.MUST_PASS_ONE);
    any.addFilter(new FirstKeyOnlyFilter());
    for (Column c : columns) {
      any.addFilter(column(Bytes.toBytes(c.family()), Bytes.toBytes(c.qualifier())));
    }
    return versions(scan.setFilter(any));
  }

  private Scan versions(Scan scan) {
    if (definition.allVersions()) {
      scan.readAllVersions();
    } else {
      scan.readVersions(1);
    }
    return scan;
  }

  /** The source columns the index reads, each once. */
  private List<Column> columns() {
    LinkedHashSet<Column> columns = new LinkedHashSet<>();
    if (definition.column() != null) {
      columns.add(definition.column());
    }
    columns.addAll(definition.covered());
    for (ColumnBinding b : definition.key().source().columns()) {
      columns.add(new Column(b.family(), b.qualifier()));
    }
    return new ArrayList<>(columns);
  }

  public byte[] family() {
    return family.clone();
  }
}
