package io.rekey.sketch;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;

/**
 * A mergeable quantiles sketch of one measure (KLL, DataSketches): a few kilobytes whatever the
 * number of values, with a rank error of about 1.3% at the default size. Minimum and maximum are
 * exact. Serializable through the sketch's own compact format.
 */
public final class Quantiles implements Serializable {
  private static final long serialVersionUID = 1L;

  /** KLL's k: 200 gives a normalized rank error of about 1.33% (single-sided, 99% confidence). */
  public static final int K = 200;

  private transient KllDoublesSketch sketch = KllDoublesSketch.newHeapInstance(K);

  public void update(double value) {
    sketch.update(value);
  }

  /** Adds another sketch's values into this one. */
  public Quantiles merge(Quantiles other) {
    if (!other.sketch.isEmpty()) {
      sketch.merge(other.sketch);
    }
    return this;
  }

  public long n() {
    return sketch.getN();
  }

  public boolean isEmpty() {
    return sketch.isEmpty();
  }

  public double min() {
    return sketch.isEmpty() ? 0 : DataSketchesLine.min(sketch);
  }

  public double max() {
    return sketch.isEmpty() ? 0 : DataSketchesLine.max(sketch);
  }

  /** The value at normalized rank {@code q} (0..1); 0 when empty. */
  public double quantile(double q) {
    return sketch.isEmpty() ? 0 : DataSketchesLine.quantile(sketch, q);
  }

  /** The fraction of values below {@code value}; 0 when empty. */
  public double rankBelow(double value) {
    if (sketch.isEmpty() || value <= DataSketchesLine.min(sketch)) {
      return 0;
    }
    if (value > DataSketchesLine.max(sketch)) {
      return 1;
    }
    return DataSketchesLine.rankBelow(sketch, value);
  }

  /** The normalized rank error this sketch guarantees (99% confidence). */
  public double rankError() {
    return sketch.getNormalizedRankError(false);
  }

  /**
   * p50/p90/p99/max and a histogram of at most {@code bins} bins between min and max. The measures
   * are whole numbers (bytes, cells), so bins have whole widths and never split one value.
   */
  public Distribution summary(int bins) {
    if (sketch.isEmpty()) {
      return new Distribution(0, 0, 0, 0, 0, 0, List.of());
    }
    double lo = Math.floor(min());
    double hi = Math.floor(max());
    double width = Math.max(1, Math.ceil((hi - lo + 1) / bins));
    List<Distribution.Bin> histogram = new ArrayList<>();
    double previousRank = 0;
    for (double from = lo; from <= hi; from += width) {
      double to = from + width;
      double rank = to > hi ? 1 : rankBelow(to);
      histogram.add(new Distribution.Bin(from, to, Math.round((rank - previousRank) * n())));
      previousRank = rank;
    }
    return new Distribution(
        n(), min(), quantile(0.5), quantile(0.9), quantile(0.99), max(), List.copyOf(histogram));
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    SketchBytes.write(out, sketch.toByteArray());
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    byte[] bytes = SketchBytes.read(in);
    // heapify gives a compact, read-only sketch; merging it into a fresh one makes it updatable.
    KllDoublesSketch read = KllDoublesSketch.heapify(Memory.wrap(bytes));
    sketch = KllDoublesSketch.newHeapInstance(K);
    if (!read.isEmpty()) {
      sketch.merge(read);
    }
  }
}
