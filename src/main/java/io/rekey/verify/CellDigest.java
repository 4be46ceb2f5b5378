package io.rekey.verify;

import io.rekey.keys.Md5;
import java.io.Serializable;
import java.security.MessageDigest;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;

/**
 * An order-independent digest of a set of cells: the count and two 64-bit sums of each cell's MD5
 * over (row, family, qualifier, timestamp, type, value). Adding is commutative, so digests of any
 * partitioning of the cells combine to the same value; a changed, missing or extra cell changes it
 * (sums, unlike XOR, also see a duplicated cell).
 */
public record CellDigest(long cells, long sumHigh, long sumLow) implements Serializable {
  public static final CellDigest EMPTY = new CellDigest(0, 0, 0);

  /** The digest of {@code cell} under {@code row}, its row in the target's key space. */
  public static CellDigest of(byte[] row, Cell cell) {
    return of(
        row,
        CellUtil.cloneFamily(cell),
        CellUtil.cloneQualifier(cell),
        cell.getTimestamp(),
        cell.getType().getCode(),
        CellUtil.cloneValue(cell));
  }

  /** The digest of one cell. */
  public static CellDigest of(
      byte[] row, byte[] family, byte[] qualifier, long timestamp, byte type, byte[] value) {
    MessageDigest md = Md5.fresh();
    for (byte[] part : new byte[][] {row, family, qualifier, value}) {
      md.update((byte) (part.length >>> 24));
      md.update((byte) (part.length >>> 16));
      md.update((byte) (part.length >>> 8));
      md.update((byte) part.length);
      md.update(part);
    }
    for (int shift = 56; shift >= 0; shift -= 8) {
      md.update((byte) (timestamp >>> shift));
    }
    md.update(type);
    byte[] d = md.digest();
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = (high << 8) | (d[i] & 0xff);
      low = (low << 8) | (d[i + 8] & 0xff);
    }
    return new CellDigest(1, high, low);
  }

  public CellDigest plus(CellDigest o) {
    return new CellDigest(cells + o.cells, sumHigh + o.sumHigh, sumLow + o.sumLow);
  }
}
