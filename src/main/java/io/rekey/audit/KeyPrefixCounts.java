package io.rekey.audit;

import java.io.Serializable;
import java.util.HashMap;

/** Rows and cells by the key's first byte and by its first two bytes. Mergeable. */
final class KeyPrefixCounts implements Serializable {
  private static final long serialVersionUID = 1L;

  final long[] firstByteRows = new long[256];
  final long[] firstByteCells = new long[256];
  // first two bytes (b0 << 8 | b1, or b0 alone as -1 - b0 for one-byte keys) -> {rows, cells}
  final HashMap<Integer, long[]> twoByteCells = new HashMap<>();

  // The last prefix counted and its counts: rows come in key order, so it rarely changes.
  private transient int lastPrefix;
  private transient long[] lastPrefixCounts;

  /** Counts a row of {@code cells} cells; an empty key has no prefix. */
  void add(byte[] key, long cells) {
    if (key.length == 0) {
      return;
    }
    int b0 = key[0] & 0xff;
    firstByteRows[b0]++;
    firstByteCells[b0] += cells;
    int prefix = key.length > 1 ? b0 << 8 | (key[1] & 0xff) : -1 - b0;
    long[] counts = prefix == lastPrefix ? lastPrefixCounts : null;
    if (counts == null) {
      counts = twoByteCells.computeIfAbsent(prefix, p -> new long[2]);
      lastPrefix = prefix;
      lastPrefixCounts = counts;
    }
    counts[0]++;
    counts[1] += cells;
  }

  void merge(KeyPrefixCounts o) {
    for (int i = 0; i < 256; i++) {
      firstByteRows[i] += o.firstByteRows[i];
      firstByteCells[i] += o.firstByteCells[i];
    }
    o.twoByteCells.forEach(
        (prefix, counts) -> {
          long[] mine = twoByteCells.computeIfAbsent(prefix, p -> new long[2]);
          mine[0] += counts[0];
          mine[1] += counts[1];
        });
  }
}
