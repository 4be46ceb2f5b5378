package io.rekey.verify;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/** A set of row keys, sorted once and looked up by binary search; shipped to tasks with a stage. */
public final class KeySet implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final KeySet NONE = new KeySet(new byte[0][]);

  private final byte[][] keys;

  private KeySet(byte[][] sorted) {
    this.keys = sorted;
  }

  /** The distinct keys of {@code keys}. */
  public static KeySet of(Collection<byte[]> keys) {
    byte[][] all = keys.toArray(new byte[0][]);
    Arrays.sort(all, Bytes.BYTES_COMPARATOR);
    List<byte[]> distinct = new ArrayList<>(all.length);
    for (byte[] k : all) {
      if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), k)) {
        distinct.add(k);
      }
    }
    return distinct.isEmpty() ? NONE : new KeySet(distinct.toArray(new byte[0][]));
  }

  public boolean contains(byte[] key) {
    return keys.length > 0 && Arrays.binarySearch(keys, key, Bytes.BYTES_COMPARATOR) >= 0;
  }

  public int size() {
    return keys.length;
  }

  /** The first {@code n} keys, printable. */
  public List<String> first(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.min(n, keys.length); i++) {
      out.add(Bytes.toStringBinary(keys[i]));
    }
    return out;
  }
}
