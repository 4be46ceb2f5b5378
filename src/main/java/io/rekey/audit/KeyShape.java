package io.rekey.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Signs that keys follow time: the rank correlation between key order and write time, and keys that
 * start with an epoch timestamp or a fixed-width counter. Either puts every new write at one end of
 * the key space, into one region.
 */
public final class KeyShape {
  /** |correlation| at or above this means keys follow time. */
  public static final double MONOTONIC_CORRELATION = 0.9;

  /** This share of sampled keys starting the same way is a pattern, not chance. */
  public static final double PREFIX_SHARE = 0.95;

  /** Fewer sampled rows than this say nothing. */
  public static final int MIN_ROWS = 50;

  // 2001-09-09 .. 2100-01-01: epoch seconds have 10 digits, millis 13, across that whole span.
  private static final long MIN_SECONDS = 1_000_000_000L;
  private static final long MAX_SECONDS = 4_102_444_800L;

  private KeyShape() {}

  /** The verdict for a row sample of a table of {@code tableRows} rows. */
  public static AuditResult.Monotonic of(List<Samples.Row> sample, long tableRows) {
    double rho = keyTimeCorrelation(sample);
    Prefix prefix = prefix(sample.stream().map(Samples.Row::key).toList(), tableRows);
    boolean monotonic =
        sample.size() >= MIN_ROWS
            && (Math.abs(rho) >= MONOTONIC_CORRELATION
                || !prefix.kind.equals("none") && prefix.share >= PREFIX_SHARE);
    return new AuditResult.Monotonic(
        monotonic, round(rho), sample.size(), prefix.kind, round(prefix.share));
  }

  /**
   * Spearman's rank correlation between key order and each row's newest timestamp (ties get their
   * mean rank); 0 for fewer than two rows or when all timestamps are equal.
   */
  static double keyTimeCorrelation(List<Samples.Row> sample) {
    int n = sample.size();
    if (n < 2) {
      return 0;
    }
    // The sample is a few runs in key order (one per task, see BottomK): a merge, not a sort.
    List<Samples.Row> byKey = new ArrayList<>(sample);
    byKey.sort(Comparator.comparing(Samples.Row::key, Bytes.BYTES_COMPARATOR));
    double[] times = new double[n];
    for (int i = 0; i < n; i++) {
      times[i] = byKey.get(i).newestTs();
    }
    double[] timeRanks = ranks(times);
    double meanRank = (n + 1) / 2.0;
    double cov = 0;
    double varKey = 0;
    double varTime = 0;
    for (int i = 0; i < n; i++) {
      double dk = (i + 1) - meanRank;
      double dt = timeRanks[i] - meanRank;
      cov += dk * dt;
      varKey += dk * dk;
      varTime += dt * dt;
    }
    return varTime == 0 ? 0 : cov / Math.sqrt(varKey * varTime);
  }

  /** Each value's rank from 1, ties their mean rank; primitive sorts, no boxing. */
  static double[] ranks(double[] values) {
    int n = values.length;
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double[] ranks = new double[n];
    for (int i = 0; i < n; i++) {
      int first = firstAtLeast(sorted, values[i]);
      int last = firstAtLeast(sorted, Math.nextUp(values[i])) - 1;
      ranks[i] = (first + last + 2) / 2.0;
    }
    return ranks;
  }

  /** The first index of {@code sorted} holding {@code value} or more. */
  private static int firstAtLeast(double[] sorted, double value) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** What most keys start with, and the share of keys that do. */
  record Prefix(String kind, double share) {}

  static Prefix prefix(List<byte[]> keys, long tableRows) {
    if (keys.isEmpty()) {
      return new Prefix("none", 0);
    }
    int millis = 0;
    int seconds = 0;
    int binaryMillis = 0;
    int[] digitWidths = new int[21];
    long minCounter = Long.MAX_VALUE;
    long maxCounter = Long.MIN_VALUE;
    for (byte[] key : keys) {
      int digits = 0;
      while (digits < key.length && digits < 20 && key[digits] >= '0' && key[digits] <= '9') {
        digits++;
      }
      digitWidths[digits]++;
      if (digits == 13 && inRange(parse(key, 13) / 1000)) {
        millis++;
      } else if (digits == 10 && inRange(parse(key, 10))) {
        seconds++;
      }
      if (digits >= 6 && digits <= 18) {
        long value = parse(key, digits);
        minCounter = Math.min(minCounter, value);
        maxCounter = Math.max(maxCounter, value);
      }
      if (key.length >= 8 && inRange(Bytes.toLong(key, 0) / 1000)) {
        binaryMillis++;
      }
    }
    double n = keys.size();
    if (millis / n >= PREFIX_SHARE) {
      return new Prefix("epoch-millis", millis / n);
    }
    if (seconds / n >= PREFIX_SHARE) {
      return new Prefix("epoch-seconds", seconds / n);
    }
    if (binaryMillis / n >= PREFIX_SHARE) {
      return new Prefix("epoch-millis-binary", binaryMillis / n);
    }
    for (int width = 6; width <= 18; width++) {
      // A fixed-width number whose values are dense (spanning at most 100 per row of the table)
      // counts up: a sequence, not a random id.
      if (digitWidths[width] / n >= PREFIX_SHARE
          && maxCounter - minCounter <= 100 * Math.max(tableRows, keys.size())) {
        return new Prefix("counter", digitWidths[width] / n);
      }
    }
    return new Prefix("none", 0);
  }

  private static boolean inRange(long epochSeconds) {
    return epochSeconds >= MIN_SECONDS && epochSeconds < MAX_SECONDS;
  }

  private static long parse(byte[] key, int digits) {
    long value = 0;
    for (int i = 0; i < digits; i++) {
      value = value * 10 + (key[i] - '0');
    }
    return value;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
