package io.rekey.sketch;

import java.util.List;

/**
 * The shape of one measure over a table: how many values, quantiles, and a histogram. Small whole
 * numbers are counted exactly, value sizes and bytes per row in log-linear buckets 1.6% wide;
 * {@code min} and {@code max} are exact.
 *
 * @param n values measured
 * @param min the smallest
 * @param p50 the median
 * @param p90 the 90th percentile
 * @param p99 the 99th percentile
 * @param max the largest
 * @param histogram equal-width bins between min and max; counts are estimates
 */
public record Distribution(
    long n, double min, double p50, double p90, double p99, double max, List<Bin> histogram) {
  /**
   * One histogram bin: values in {@code [from, to)}, the last bin including max.
   *
   * @param from the bin's lower bound (inclusive)
   * @param to its upper bound (exclusive, but for the last bin)
   * @param count values in the bin
   */
  public record Bin(double from, double to, long count) {}
}
