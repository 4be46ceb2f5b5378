package io.rekey.sketch;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The distribution of a measure that is almost always a small whole number (versions per column,
 * columns and cells per row, key length): exact counts below {@link #EXACT_BELOW}, a KLL sketch for
 * the larger values. Counting is an array increment, which matters for a measure taken for every
 * row or column of a table.
 */
public final class SmallCounts implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final int EXACT_BELOW = 256;

  private final long[] counts = new long[EXACT_BELOW];
  private final Quantiles large = new Quantiles();

  public void update(long value) {
    if (value >= 0 && value < EXACT_BELOW) {
      counts[(int) value]++;
    } else {
      large.update(value);
    }
  }

  public SmallCounts merge(SmallCounts other) {
    for (int i = 0; i < EXACT_BELOW; i++) {
      counts[i] += other.counts[i];
    }
    large.merge(other.large);
    return this;
  }

  public long n() {
    long n = large.n();
    for (long c : counts) {
      n += c;
    }
    return n;
  }

  public double max() {
    if (!large.isEmpty()) {
      return large.max();
    }
    for (int i = EXACT_BELOW - 1; i >= 0; i--) {
      if (counts[i] > 0) {
        return i;
      }
    }
    return 0;
  }

  /**
   * Quantiles and a histogram: exact over the small values; the large ones (all above the small
   * ones) come from the sketch.
   */
  public Distribution summary(int bins) {
    long n = n();
    if (n == 0) {
      return new Distribution(0, 0, 0, 0, 0, 0, List.of());
    }
    double min = smallest();
    double max = max();
    List<Distribution.Bin> histogram = new ArrayList<>();
    double width = Math.max(1, Math.ceil((max - min + 1) / bins));
    for (double from = min; from <= max; from += width) {
      histogram.add(
          new Distribution.Bin(from, from + width, countBelow(from + width) - countBelow(from)));
    }
    return new Distribution(
        n, min, quantile(0.5, n), quantile(0.9, n), quantile(0.99, n), max, List.copyOf(histogram));
  }

  private double smallest() {
    for (int i = 0; i < EXACT_BELOW; i++) {
      if (counts[i] > 0) {
        return i;
      }
    }
    return large.min();
  }

  private long countBelow(double value) {
    long below = 0;
    for (int i = 0; i < EXACT_BELOW && i < value; i++) {
      below += counts[i];
    }
    return below + Math.round(large.rankBelow(value) * large.n());
  }

  private double quantile(double q, long n) {
    long rank = (long) Math.ceil(q * n);
    long seen = 0;
    for (int i = 0; i < EXACT_BELOW; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return i;
      }
    }
    return large.quantile((rank - seen) / (double) large.n());
  }
}
