package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A set of row keys as one cell's value: each key's length (two bytes: a row key is at most 32,767)
 * and bytes, in key order, once each, so equal sets are equal bytes. An index's row records and a
 * stream's key map keep the keys a source row is held under this way. Pure.
 */
public final class KeyList {
  private KeyList() {}

  /** The bytes of {@code keys}, sorted and without repeats. */
  public static byte[] encode(List<byte[]> keys) {
    TreeSet<byte[]> sorted = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    sorted.addAll(keys);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] k : sorted) {
      out.write(Bytes.toBytes((short) k.length), 0, Bytes.SIZEOF_SHORT);
      out.write(k, 0, k.length);
    }
    return out.toByteArray();
  }

  /**
   * The keys {@code bytes} hold.
   *
   * @param what what the bytes should be, for the message when they are not ("an index row record")
   * @throws IllegalArgumentException when the bytes are no key list
   */
  public static List<byte[]> decode(byte[] bytes, String what) {
    List<byte[]> keys = new ArrayList<>();
    int at = 0;
    while (at < bytes.length) {
      int length = at + Bytes.SIZEOF_SHORT <= bytes.length ? Bytes.toShort(bytes, at) : -1;
      at += Bytes.SIZEOF_SHORT;
      if (length < 0 || at + length > bytes.length) {
        throw new IllegalArgumentException("not " + what + ": " + Bytes.toStringBinary(bytes));
      }
      keys.add(Arrays.copyOfRange(bytes, at, at + length));
      at += length;
    }
    return keys;
  }
}
