package io.rekey.hbase;

import java.io.Serializable;
import java.util.Comparator;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A cell on its way from the map stage to a writer: one byte array in HBase's own KeyValue
 * serialization, with the row replaced by its new row, because Spark moves and sorts a byte array
 * far faster than an object with several, and because an HFile writer then takes the array as it is
 * ({@link #asKeyValue}) instead of copying every cell once more.
 *
 * <pre>
 * [key length: 4][value length: 4][row length: 2][row][family length: 1][family][qualifier]
 * [timestamp: 8][type: 1][value]
 * </pre>
 *
 * The shuffle pairs such a record with the cell's old row (layouts checked for collisions) or with
 * null. {@link #ORDER} sorts records as HBase sorts cells: row, family, qualifier ascending, then
 * timestamp and type descending.
 */
public final class ShuffleCell {
  /** HBase's cell order over records, as a comparator Spark can ship. */
  public static final Comparator<byte[]> ORDER = new Order();

  /** Where the row starts: after the key and value lengths and the row length. */
  public static final int ROW_OFFSET = 10;

  private ShuffleCell() {}

  /** {@code cell} moved to {@code row}: family, qualifier, timestamp, type and value kept. */
  public static byte[] of(byte[] row, Cell cell) {
    int fl = cell.getFamilyLength();
    int ql = cell.getQualifierLength();
    int vl = cell.getValueLength();
    byte[] record = header(row, fl, ql, vl);
    int p = ROW_OFFSET + row.length;
    record[p++] = (byte) fl;
    p = CellUtil.copyFamilyTo(cell, record, p);
    p = CellUtil.copyQualifierTo(cell, record, p);
    p = Bytes.putLong(record, p, cell.getTimestamp());
    record[p++] = cell.getType().getCode();
    CellUtil.copyValueTo(cell, record, p);
    return record;
  }

  /** A put of {@code value} at {@code family:qualifier} and {@code ts} in {@code row}. */
  public static byte[] put(byte[] row, byte[] family, byte[] qualifier, long ts, byte[] value) {
    byte[] record = header(row, family.length, qualifier.length, value.length);
    int p = ROW_OFFSET + row.length;
    record[p++] = (byte) family.length;
    p = Bytes.putBytes(record, p, family, 0, family.length);
    p = Bytes.putBytes(record, p, qualifier, 0, qualifier.length);
    p = Bytes.putLong(record, p, ts);
    record[p++] = Cell.Type.Put.getCode();
    Bytes.putBytes(record, p, value, 0, value.length);
    return record;
  }

  private static byte[] header(byte[] row, int familyLength, int qualifierLength, int valueLength) {
    int keyLength = 2 + row.length + 1 + familyLength + qualifierLength + 9;
    byte[] record = new byte[8 + keyLength + valueLength];
    Bytes.putInt(record, 0, keyLength);
    Bytes.putInt(record, 4, valueLength);
    record[8] = (byte) (row.length >>> 8);
    record[9] = (byte) row.length;
    System.arraycopy(row, 0, record, ROW_OFFSET, row.length);
    return record;
  }

  /** The record as the cell it is, sharing its bytes. */
  public static KeyValue asKeyValue(byte[] record) {
    return new KeyValue(record, 0, record.length);
  }

  public static int rowLength(byte[] record) {
    return ((record[8] & 0xff) << 8) | (record[9] & 0xff);
  }

  public static int familyOffset(byte[] record) {
    return ROW_OFFSET + rowLength(record) + 1;
  }

  public static int familyLength(byte[] record) {
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

  public static byte type(byte[] record) {
    return record[keyEnd(record) - 1];
  }

  public static int valueOffset(byte[] record) {
    return keyEnd(record);
  }

  public static int valueLength(byte[] record) {
    return Bytes.toInt(record, 4);
  }

  private static int keyEnd(byte[] record) {
    return 8 + Bytes.toInt(record, 0);
  }

  /** Whether two records have the same row. */
  public static boolean sameRow(byte[] a, byte[] b) {
    return Bytes.equals(a, ROW_OFFSET, rowLength(a), b, ROW_OFFSET, rowLength(b));
  }

  /**
   * Orders two records of the same row as HBase orders cells: family, qualifier ascending, then
   * timestamp and type descending.
   */
  public static int compareWithinRow(byte[] a, byte[] b) {
    int fa = familyOffset(a);
    int fb = familyOffset(b);
    int fla = a[fa - 1] & 0xff;
    int flb = b[fb - 1] & 0xff;
    int c = Bytes.compareTo(a, fa, fla, b, fb, flb);
    if (c != 0) {
      return c;
    }
    int ea = keyEnd(a);
    int eb = keyEnd(b);
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
