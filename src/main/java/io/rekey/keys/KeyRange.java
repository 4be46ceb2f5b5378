package io.rekey.keys;

import java.util.Arrays;
import java.util.HexFormat;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A range of row keys to scan: {@code start} included, {@code stop} excluded; an empty array is the
 * start or end of the table, as in HBase's {@code Scan}.
 */
public record KeyRange(byte[] start, byte[] stop) {
  public KeyRange {
    start = start.clone();
    stop = stop.clone();
  }

  @Override
  public byte[] start() {
    return start.clone();
  }

  @Override
  public byte[] stop() {
    return stop.clone();
  }

  /** Whether {@code key} falls in this range. */
  public boolean contains(byte[] key) {
    return Bytes.compareTo(key, start) >= 0 && (stop.length == 0 || Bytes.compareTo(key, stop) < 0);
  }

  /** The key that follows every key starting with {@code prefix}; empty when there is none. */
  public static byte[] prefixSuccessor(byte[] prefix) {
    int i = prefix.length - 1;
    while (i >= 0 && prefix[i] == (byte) 0xFF) {
      i--;
    }
    if (i < 0) {
      return new byte[0];
    }
    byte[] next = Arrays.copyOf(prefix, i + 1);
    next[i]++;
    return next;
  }

  /** Every key that starts with {@code prefix}. */
  public static KeyRange prefix(byte[] prefix) {
    return new KeyRange(prefix, prefixSuccessor(prefix));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && Arrays.equals(r.start, start) && Arrays.equals(r.stop, stop);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(start) * 31 + Arrays.hashCode(stop);
  }

  @Override
  public String toString() {
    return "["
        + Bytes.toStringBinary(start)
        + ", "
        + Bytes.toStringBinary(stop)
        + ") hex ["
        + HexFormat.of().formatHex(start)
        + ", "
        + HexFormat.of().formatHex(stop)
        + ")";
  }
}
