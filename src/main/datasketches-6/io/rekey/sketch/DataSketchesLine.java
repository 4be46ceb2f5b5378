package io.rekey.sketch;

import org.apache.datasketches.common.ArrayOfStringsSerDe;
import org.apache.datasketches.frequencies.ItemsSketch;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * The DataSketches calls whose names differ between the library's lines, for DataSketches 6.x
 * (Spark 4.1 brings 6.2.0). DataSketches is not in the jar: each Spark brings its own, so each cell
 * compiles its own copy of this class (the other line's is in src/main/datasketches-3, the pom
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
    return sketch.getMinItem();
  }

  /** The largest value seen; the sketch must not be empty. */
  static double max(KllDoublesSketch sketch) {
    return sketch.getMaxItem();
  }

  /** The fraction of the values strictly below {@code value}. */
  static double rankBelow(KllDoublesSketch sketch, double value) {
    return sketch.getRank(value, QuantileSearchCriteria.EXCLUSIVE);
  }

  /** The value at normalized rank {@code rank}, ranks counted strictly below (exclusive). */
  static double quantile(KllDoublesSketch sketch, double rank) {
    return sketch.getQuantile(rank, QuantileSearchCriteria.EXCLUSIVE);
  }
}
