package io.rekey.verify;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Both sides' digests of one target row, and the source rows mapped to it: what the row-by-row
 * comparison shuffles, as a byte array ({@link #toBytes}). Spark's Kryo starts afresh after every
 * record, so an object of a class it has not registered carries its class name each time (18 of 150
 * bytes); a byte array does not, and leaves out the side the row does not come from.
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

  private static final byte SOURCE = 1;
  private static final byte TARGET = 2;

  /** The shuffle's form: which sides are there, their sums, then the source keys. */
  byte[] toBytes() {
    boolean source = sourceCells != 0 || sourceHigh != 0 || sourceLow != 0;
    boolean target = targetCells != 0 || targetHigh != 0 || targetLow != 0;
    int length = 1 + (source ? 24 : 0) + (target ? 24 : 0) + 4;
    for (byte[] k : sourceKeys) {
      length += 4 + k.length;
    }
    ByteBuffer out = ByteBuffer.allocate(length);
    out.put((byte) ((source ? SOURCE : 0) | (target ? TARGET : 0)));
    if (source) {
      out.putLong(sourceCells).putLong(sourceHigh).putLong(sourceLow);
    }
    if (target) {
      out.putLong(targetCells).putLong(targetHigh).putLong(targetLow);
    }
    out.putInt(sourceKeys.length);
    for (byte[] k : sourceKeys) {
      out.putInt(k.length).put(k);
    }
    return out.array();
  }

  static RowSums fromBytes(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    byte sides = in.get();
    RowSums s = new RowSums();
    if ((sides & SOURCE) != 0) {
      s.sourceCells = in.getLong();
      s.sourceHigh = in.getLong();
      s.sourceLow = in.getLong();
    }
    if ((sides & TARGET) != 0) {
      s.targetCells = in.getLong();
      s.targetHigh = in.getLong();
      s.targetLow = in.getLong();
    }
    s.sourceKeys = new byte[in.getInt()][];
    for (int i = 0; i < s.sourceKeys.length; i++) {
      s.sourceKeys[i] = new byte[in.getInt()];
      in.get(s.sourceKeys[i]);
    }
    return s;
  }

  /** {@link #plus} of two shuffled forms. */
  static byte[] plus(byte[] a, byte[] b) {
    return plus(fromBytes(a), fromBytes(b)).toBytes();
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
