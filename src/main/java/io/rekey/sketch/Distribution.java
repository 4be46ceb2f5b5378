package io.rekey.sketch;

import java.util.List;

/**
 * The shape of one measure over a table: how many values, quantiles, and a histogram. Small whole
 * numbers are counted exactly, value sizes and bytes per row in log-linear buckets 1.6% wide;
 * {@code min} and {@code max} are exact.
 *
 * @param histogram equal-width bins between min and max; counts are estimates
 */
public record Distribution(
    long n, double min, double p50, double p90, double p99, double max, List<Bin> histogram) {
  /** One histogram bin: values in {@code [from, to)}, the last bin including max. */
  public record Bin(double from, double to, long count) {}
}
