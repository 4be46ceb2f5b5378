package io.rekey.hbase;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where a cell goes in an HFile: row, family, qualifier, timestamp and type. Ordered as HBase
 * orders cells (row, family, qualifier ascending; timestamp and type descending), which is the
 * order an HFile must be written in.
 */
public final class CellKey implements Serializable {
  private static final long serialVersionUID = 1L;

  // A plain class, not a record: Spark's Kryo (4.x) cannot rebuild records in the shuffle.
  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final long timestamp;
  private final byte type;

  public CellKey(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte type) {
    this.row = row;
    this.family = family;
    this.qualifier = qualifier;
    this.timestamp = timestamp;
    this.type = type;
  }

  public byte[] row() {
    return row;
  }

  public byte[] family() {
    return family;
  }

  public byte[] qualifier() {
    return qualifier;
  }

  public long timestamp() {
    return timestamp;
  }

  public byte type() {
    return type;
  }

  /** HBase's cell order, as a comparator Spark can ship. */
  public static final Comparator<CellKey> ORDER = new Order();

  private static final class Order implements Comparator<CellKey>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(CellKey a, CellKey b) {
      int c = Bytes.compareTo(a.row, b.row);
      if (c != 0) {
        return c;
      }
      c = Bytes.compareTo(a.family, b.family);
      if (c != 0) {
        return c;
      }
      c = Bytes.compareTo(a.qualifier, b.qualifier);
      if (c != 0) {
        return c;
      }
      c = Long.compare(b.timestamp, a.timestamp);
      if (c != 0) {
        return c;
      }
      return Integer.compare(b.type & 0xff, a.type & 0xff);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CellKey k
        && k.timestamp == timestamp
        && k.type == type
        && Arrays.equals(k.row, row)
        && Arrays.equals(k.family, family)
        && Arrays.equals(k.qualifier, qualifier);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(row) * 31 + Arrays.hashCode(qualifier);
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(row)
        + "/"
        + Bytes.toStringBinary(family)
        + ":"
        + Bytes.toStringBinary(qualifier)
        + "/"
        + timestamp;
  }
}
