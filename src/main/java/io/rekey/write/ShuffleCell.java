package io.rekey.write;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cells on their way from the map stage to a writer: one byte array holding one or more cells of
 * one row, each in HBase's own KeyValue serialization with the row replaced by its new row, one
 * after another in HBase's cell order. Spark moves and sorts a byte array far faster than an object
 * with several, and one array per row rather than per cell spares the shuffle four fifths of its
 * records for a table of five-cell rows; an HFile writer takes each cell where it lies ({@link
 * #asKeyValue}) instead of copying it once more.
 *
 * <pre>
 * cell: [key length: 4][value length: 4][row length: 2][row][family length: 1][family][qualifier]
 *       [timestamp: 8][type: 1][value]
 * </pre>
 *
 * The shuffle pairs such a record with the cells' old row (layouts checked for collisions) or with
 * null. {@link #ORDER} sorts records by their first cell as HBase sorts cells: row, family,
 * qualifier ascending, then timestamp and type descending. The accessors without an offset read the
 * first cell.
 */
public final class ShuffleCell {
  /** HBase's cell order over records' first cells, as a comparator Spark can ship. */
  public static final Comparator<byte[]> ORDER = new Order();

  /**
   * A row's cells go in records of about this size at most (a single larger cell in one of its
   * own), so rows of large values do not make records Spark must hold whole many times over.
   */
  public static final int RECORD_BYTES = 1 << 20;

  /** Where the first cell's row starts: after the key and value lengths and the row length. */
  public static final int ROW_OFFSET = 10;

  private ShuffleCell() {}

  /** {@code cell} moved to {@code row}: family, qualifier, timestamp, type and value kept. */
  public static byte[] of(byte[] row, Cell cell) {
    byte[] record = new byte[length(row, cell)];
    write(record, 0, row, cell);
    return record;
  }

  /**
   * {@code cells[from, to)}, cells of one row in HBase's order (as a {@link
   * org.apache.hadoop.hbase.client.Result} holds them), moved to {@code row} as one record.
   */
  public static byte[] of(byte[] row, Cell[] cells, int from, int to) {
    int size = 0;
    for (int i = from; i < to; i++) {
      size += length(row, cells[i]);
    }
    byte[] record = new byte[size];
    int p = 0;
    for (int i = from; i < to; i++) {
      p = write(record, p, row, cells[i]);
    }
    return record;
  }

  /**
   * {@code cells}, one row's in HBase's order, moved to {@code row} as records of about {@link
   * #RECORD_BYTES} at most (cut between cells, so a large value is a record of its own).
   */
  public static List<byte[]> records(byte[] row, Cell[] cells) {
    List<byte[]> out = new ArrayList<>(1);
    int from = 0;
    int bytes = 0;
    for (int i = 0; i < cells.length; i++) {
      int length = length(row, cells[i]);
      if (i > from && bytes + length > RECORD_BYTES) {
        out.add(of(row, cells, from, i));
        from = i;
        bytes = 0;
      }
      bytes += length;
    }
    if (from < cells.length) {
      out.add(of(row, cells, from, cells.length));
    }
    return out;
  }

  /** The bytes {@code cell} takes in a record once moved to {@code row}. */
  public static int length(byte[] row, Cell cell) {
    return 8
        + keyLength(row, cell.getFamilyLength(), cell.getQualifierLength())
        + cell.getValueLength();
  }

  /** A cell's key: row length, row, family length, family, qualifier, timestamp and type. */
  private static int keyLength(byte[] row, int familyLength, int qualifierLength) {
    return 2 + row.length + 1 + familyLength + qualifierLength + 9;
  }

  private static int write(byte[] record, int at, byte[] row, Cell cell) {
    int fl = cell.getFamilyLength();
    int ql = cell.getQualifierLength();
    int p = header(record, at, row, fl, ql, cell.getValueLength());
    record[p++] = (byte) fl;
    p = CellUtil.copyFamilyTo(cell, record, p);
    p = CellUtil.copyQualifierTo(cell, record, p);
    p = Bytes.putLong(record, p, cell.getTimestamp());
    record[p++] = cell.getType().getCode();
    return CellUtil.copyValueTo(cell, record, p);
  }

  /**
   * Single-cell records of one row joined into one record, in HBase's cell order whatever order
   * they come in.
   */
  public static byte[] join(List<byte[]> cells) {
    if (cells.size() == 1) {
      return cells.get(0);
    }
    List<byte[]> sorted = new ArrayList<>(cells);
    sorted.sort(ShuffleCell::compareWithinRow);
    int size = 0;
    for (byte[] c : sorted) {
      size += c.length;
    }
    byte[] record = new byte[size];
    int p = 0;
    for (byte[] c : sorted) {
      System.arraycopy(c, 0, record, p, c.length);
      p += c.length;
    }
    return record;
  }

  /** A put of {@code value} at {@code family:qualifier} and {@code ts} in {@code row}. */
  public static byte[] put(byte[] row, byte[] family, byte[] qualifier, long ts, byte[] value) {
    byte[] record = new byte[8 + keyLength(row, family.length, qualifier.length) + value.length];
    int p = header(record, 0, row, family.length, qualifier.length, value.length);
    record[p++] = (byte) family.length;
    p = Bytes.putBytes(record, p, family, 0, family.length);
    p = Bytes.putBytes(record, p, qualifier, 0, qualifier.length);
    p = Bytes.putLong(record, p, ts);
    record[p++] = Cell.Type.Put.getCode();
    Bytes.putBytes(record, p, value, 0, value.length);
    return record;
  }

  /**
   * Puts at {@code ts} in one row as one record, without a record per cell to join: the first
   * {@code count} {@code qualifiers}, each with the value of the cell at the same index, or an
   * empty value where that is null. The qualifiers must come in ascending order.
   */
  public static byte[] puts(
      byte[] row, byte[] family, long ts, byte[][] qualifiers, Cell[] values, int count) {
    int size = 0;
    for (int i = 0; i < count; i++) {
      size +=
          8
              + keyLength(row, family.length, qualifiers[i].length)
              + (values[i] == null ? 0 : values[i].getValueLength());
    }
    byte[] record = new byte[size];
    int p = 0;
    for (int i = 0; i < count; i++) {
      Cell value = values[i];
      byte[] qualifier = qualifiers[i];
      p =
          header(
              record,
              p,
              row,
              family.length,
              qualifier.length,
              value == null ? 0 : value.getValueLength());
      record[p++] = (byte) family.length;
      p = Bytes.putBytes(record, p, family, 0, family.length);
      p = Bytes.putBytes(record, p, qualifier, 0, qualifier.length);
      p = Bytes.putLong(record, p, ts);
      record[p++] = Cell.Type.Put.getCode();
      if (value != null) {
        p = CellUtil.copyValueTo(value, record, p);
      }
    }
    return record;
  }

  /** Writes a cell's lengths and row at {@code at}; returns where its family length goes. */
  private static int header(
      byte[] record, int at, byte[] row, int familyLength, int qualifierLength, int valueLength) {
    Bytes.putInt(record, at, keyLength(row, familyLength, qualifierLength));
    Bytes.putInt(record, at + 4, valueLength);
    record[at + 8] = (byte) (row.length >>> 8);
    record[at + 9] = (byte) row.length;
    System.arraycopy(row, 0, record, at + ROW_OFFSET, row.length);
    return at + ROW_OFFSET + row.length;
  }

  /** The bytes of the cell starting at {@code offset} of a record. */
  public static int cellLength(byte[] record, int offset) {
    return 8 + Bytes.toInt(record, offset) + Bytes.toInt(record, offset + 4);
  }

  /** How many cells a record holds. */
  public static int cellCount(byte[] record) {
    int n = 0;
    for (int p = 0; p < record.length; p += cellLength(record, p)) {
      n++;
    }
    return n;
  }

  /** Where a record's last cell starts. */
  public static int lastCellOffset(byte[] record) {
    int p = 0;
    for (int next = cellLength(record, 0); next < record.length; next += cellLength(record, next)) {
      p = next;
    }
    return p;
  }

  /** The cell at {@code offset} of a record as a single-cell record (a copy). */
  public static byte[] cellAt(byte[] record, int offset) {
    return Arrays.copyOfRange(record, offset, offset + cellLength(record, offset));
  }

  /** The cell at {@code offset} of a record as the cell it is, sharing its bytes. */
  public static KeyValue asKeyValue(byte[] record, int offset) {
    return new KeyValue(record, offset, cellLength(record, offset));
  }

  /** A single-cell record as the cell it is, sharing its bytes. */
  public static KeyValue asKeyValue(byte[] record) {
    return asKeyValue(record, 0);
  }

  public static int rowLength(byte[] record) {
    return ((record[8] & 0xff) << 8) | (record[9] & 0xff);
  }

  private static int familyOffset(byte[] record) {
    return ROW_OFFSET + rowLength(record) + 1;
  }

  private static int familyLength(byte[] record) {
    return record[ROW_OFFSET + rowLength(record)] & 0xff;
  }

  public static int qualifierOffset(byte[] record) {
    return familyOffset(record) + familyLength(record);
  }

  public static int qualifierLength(byte[] record) {
    return keyEnd(record) - 9 - qualifierOffset(record);
  }

  public static long timestamp(byte[] record) {
    return Bytes.toLong(record, keyEnd(record) - 9);
  }

  private static int keyEnd(byte[] record) {
    return 8 + Bytes.toInt(record, 0);
  }

  /** Whether two records have the same row. */
  public static boolean sameRow(byte[] a, byte[] b) {
    return Bytes.equals(a, ROW_OFFSET, rowLength(a), b, ROW_OFFSET, rowLength(b));
  }

  /**
   * Orders the first cells of two records of the same row as HBase orders cells: family, qualifier
   * ascending, then timestamp and type descending.
   */
  public static int compareWithinRow(byte[] a, byte[] b) {
    return compareWithinRow(a, 0, b, 0);
  }

  /** {@link #compareWithinRow(byte[], byte[])} for the cells at {@code aAt} and {@code bAt}. */
  public static int compareWithinRow(byte[] a, int aAt, byte[] b, int bAt) {
    int fa = aAt + ROW_OFFSET + ((a[aAt + 8] & 0xff) << 8 | (a[aAt + 9] & 0xff)) + 1;
    int fb = bAt + ROW_OFFSET + ((b[bAt + 8] & 0xff) << 8 | (b[bAt + 9] & 0xff)) + 1;
    int fla = a[fa - 1] & 0xff;
    int flb = b[fb - 1] & 0xff;
    int c = Bytes.compareTo(a, fa, fla, b, fb, flb);
    if (c != 0) {
      return c;
    }
    int ea = aAt + 8 + Bytes.toInt(a, aAt);
    int eb = bAt + 8 + Bytes.toInt(b, bAt);
    int qa = fa + fla;
    int qb = fb + flb;
    c = Bytes.compareTo(a, qa, ea - 9 - qa, b, qb, eb - 9 - qb);
    if (c != 0) {
      return c;
    }
    c = Long.compare(Bytes.toLong(b, eb - 9), Bytes.toLong(a, ea - 9));
    if (c != 0) {
      return c;
    }
    return Integer.compare(b[eb - 1] & 0xff, a[ea - 1] & 0xff);
  }

  private static final class Order implements Comparator<byte[]>, Serializable {
    private static final long serialVersionUID = 2L;

    @Override
    public int compare(byte[] a, byte[] b) {
      int c = Bytes.compareTo(a, ROW_OFFSET, rowLength(a), b, ROW_OFFSET, rowLength(b));
      return c != 0 ? c : compareWithinRow(a, b);
    }
  }
}
