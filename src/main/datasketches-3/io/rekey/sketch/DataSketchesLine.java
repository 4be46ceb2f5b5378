package io.rekey.sketch;

import org.apache.datasketches.ArrayOfStringsSerDe;
import org.apache.datasketches.frequencies.ItemsSketch;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;

/**
 * The DataSketches calls whose names differ between the library's lines, for DataSketches 3.x
 * (Spark 3.5 brings 3.3.0). DataSketches is not in the jar: each Spark brings its own, so each cell
 * compiles its own copy of this class (the other line's is in src/main/datasketches-6, the pom
 * picks one). Between 3.x and 4.x the string codec moved package, KLL's min/max were renamed, and a
 * rank or quantile asked without a search criterion turned from exclusive to inclusive: these ask
 * for the exclusive one (the fraction strictly below) on either line.
 */
final class DataSketchesLine {
  private DataSketchesLine() {}

  static byte[] toBytes(ItemsSketch<String> sketch) {
    return sketch.toByteArray(new ArrayOfStringsSerDe());
  }

  static ItemsSketch<String> fromBytes(byte[] bytes) {
    return ItemsSketch.getInstance(Memory.wrap(bytes), new ArrayOfStringsSerDe());
  }

  /** The smallest value seen; the sketch must not be empty. */
  static double min(KllDoublesSketch sketch) {
    return sketch.getMinValue();
  }

  /** The largest value seen; the sketch must not be empty. */
  static double max(KllDoublesSketch sketch) {
    return sketch.getMaxValue();
  }

  /** The fraction of the values strictly below {@code value}. */
  static double rankBelow(KllDoublesSketch sketch, double value) {
    return sketch.getRank(value);
  }

  /** The value at normalized rank {@code rank}, ranks counted strictly below (exclusive). */
  static double quantile(KllDoublesSketch sketch, double rank) {
    return sketch.getQuantile(rank);
  }
}
