package io.rekey.verify;

import java.util.Arrays;

/**
 * Both sides' digests of one target row, and the source rows mapped to it: what the row-by-row
 * comparison shuffles. A plain class, so Kryo writes it field by field (records go through Java
 * serialization, which would cost more than the digest for every row of a table).
 */
final class RowSums {
  long sourceCells;
  long sourceHigh;
  long sourceLow;
  long targetCells;
  long targetHigh;
  long targetLow;
  byte[][] sourceKeys;

  static RowSums source(CellDigest d, byte[] sourceKey) {
    RowSums s = new RowSums();
    s.sourceCells = d.cells();
    s.sourceHigh = d.sumHigh();
    s.sourceLow = d.sumLow();
    s.sourceKeys = new byte[][] {sourceKey};
    return s;
  }

  static RowSums target(CellDigest d) {
    RowSums s = new RowSums();
    s.targetCells = d.cells();
    s.targetHigh = d.sumHigh();
    s.targetLow = d.sumLow();
    s.sourceKeys = new byte[0][];
    return s;
  }

  /** Both added up; a source row read in several batches is named once. */
  static RowSums plus(RowSums a, RowSums b) {
    RowSums s = new RowSums();
    s.sourceCells = a.sourceCells + b.sourceCells;
    s.sourceHigh = a.sourceHigh + b.sourceHigh;
    s.sourceLow = a.sourceLow + b.sourceLow;
    s.targetCells = a.targetCells + b.targetCells;
    s.targetHigh = a.targetHigh + b.targetHigh;
    s.targetLow = a.targetLow + b.targetLow;
    byte[][] keys = Arrays.copyOf(a.sourceKeys, a.sourceKeys.length + b.sourceKeys.length);
    int n = a.sourceKeys.length;
    for (byte[] k : b.sourceKeys) {
      boolean known = false;
      for (int i = 0; i < n; i++) {
        known |= Arrays.equals(keys[i], k);
      }
      if (!known) {
        keys[n++] = k;
      }
    }
    s.sourceKeys = Arrays.copyOf(keys, n);
    return s;
  }

  boolean differ() {
    return sourceCells != targetCells || sourceHigh != targetHigh || sourceLow != targetLow;
  }

  RowDifferences.Kind kind() {
    if (targetCells == 0) {
      return RowDifferences.Kind.MISSING;
    }
    return sourceCells == 0 ? RowDifferences.Kind.EXTRA : RowDifferences.Kind.DIFFERENT;
  }
}
