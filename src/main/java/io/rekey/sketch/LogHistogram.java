package io.rekey.sketch;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact counts of whole numbers in log-linear buckets (as HdrHistogram does): values below 128 each
 * have a bucket, larger ones share a bucket with values within 1/64 (1.6%) of them. Counting is a
 * shift and an increment, cheap enough for every cell of a table; quantiles are within 1.6% of the
 * true value, min and max are exact, and merging adds the counts.
 */
public final class LogHistogram implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final int EXACT = 128;
  private static final int SUB_BITS = 6;
  private static final int SUB = 1 << SUB_BITS;
  // Values up to Long.MAX_VALUE: powers of two from 2^7 to 2^62, 64 buckets each.
  private static final int BUCKETS = EXACT + (63 - 7) * SUB;

  private final long[] counts = new long[BUCKETS];
  private long n;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;

  public void update(long value) {
    long v = Math.max(0, value);
    counts[index(v)]++;
    n++;
    if (v < min) {
      min = v;
    }
    if (v > max) {
      max = v;
    }
  }

  public static int index(long v) {
    if (v < EXACT) {
      return (int) v;
    }
    int exp = 63 - Long.numberOfLeadingZeros(v);
    int sub = (int) ((v >>> (exp - SUB_BITS)) & (SUB - 1));
    return EXACT + (exp - 7) * SUB + sub;
  }

  /** The smallest value of bucket {@code index}. */
  public static long lowest(int index) {
    if (index < EXACT) {
      return index;
    }
    int exp = (index - EXACT) / SUB + 7;
    int sub = (index - EXACT) % SUB;
    return ((long) SUB + sub) << (exp - SUB_BITS);
  }

  public LogHistogram merge(LogHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    n += other.n;
    min = Math.min(min, other.min);
    max = Math.max(max, other.max);
    return this;
  }

  public long n() {
    return n;
  }

  public double quantile(double q) {
    long rank = Math.max(1, (long) Math.ceil(q * n));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(max, Math.max(min, lowest(i)));
      }
    }
    return max;
  }

  /** Quantiles and a histogram of at most {@code bins} equal-width bins between min and max. */
  public Distribution summary(int bins) {
    if (n == 0) {
      return new Distribution(0, 0, 0, 0, 0, 0, List.of());
    }
    double width = Math.max(1, Math.ceil((max - min + 1) / (double) bins));
    int binCount = (int) Math.ceil((max - min + 1) / width);
    long[] binCounts = new long[binCount];
    for (int i = 0; i < BUCKETS; i++) {
      if (counts[i] > 0) {
        long value = Math.min(max, Math.max(min, lowest(i)));
        binCounts[(int) Math.min(binCount - 1, (value - min) / width)] += counts[i];
      }
    }
    List<Distribution.Bin> histogram = new ArrayList<>();
    for (int b = 0; b < binCount; b++) {
      histogram.add(new Distribution.Bin(min + b * width, min + (b + 1) * width, binCounts[b]));
    }
    return new Distribution(
        n, min, quantile(0.5), quantile(0.9), quantile(0.99), max, List.copyOf(histogram));
  }
}
