package io.rekey.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where a profiled table's data and recent writes fall: skew over regions and over equal-count key
 * ranges of the cell sample (max over mean, Gini), and the write-time heatmap by region or key
 * range. Pure, as the rest of {@link AuditAnalysis}.
 */
final class SkewAnalysis {
  static final int TIME_BUCKETS = 24;
  static final int MAX_HEATMAP_KEY_BUCKETS = 64;
  static final int KEY_RANGES = 16;

  /** Fewer regions than this are drawn as equal-count key ranges, which show more. */
  static final int MIN_REGIONS_FOR_HEATMAP = 4;

  private SkewAnalysis() {}

  static AuditResult.Skew skew(TableProfile p, long cutoff, List<Samples.Cell> cells) {
    List<byte[]> starts = p.settings().regionStarts();
    int n = starts.size();
    List<AuditResult.RegionStats> regions = new ArrayList<>();
    double[] rows = new double[n];
    double[] cellCounts = new double[n];
    double[] bytes = new double[n];
    double[] recent = new double[n];
    for (int i = 0; i < n; i++) {
      RegionProfile r = p.regions.get(i);
      long recentCells = r == null ? 0 : Math.round(r.cells * (1 - fractionBefore(r, cutoff)));
      AuditResult.RegionStats stats =
          new AuditResult.RegionStats(
              i,
              Bytes.toStringBinary(starts.get(i)),
              r == null ? 0 : r.rows,
              r == null ? 0 : r.cells,
              r == null ? 0 : r.bytes,
              recentCells);
      regions.add(stats);
      rows[i] = stats.rows();
      cellCounts[i] = stats.cells();
      bytes[i] = stats.bytes();
      recent[i] = recentCells;
    }
    List<AuditResult.RegionStats> hottest = new ArrayList<>(regions);
    hottest.sort(Comparator.comparingLong(AuditResult.RegionStats::recentCells).reversed());
    List<AuditResult.RegionStats> listed = regions;
    if (listed.size() > AuditResult.MAX_REGIONS_LISTED) {
      listed = new ArrayList<>(regions);
      listed.sort(Comparator.comparingLong(AuditResult.RegionStats::cells).reversed());
      listed = listed.subList(0, AuditResult.MAX_REGIONS_LISTED);
      listed.sort(Comparator.comparingInt(AuditResult.RegionStats::index));
    }
    List<AuditResult.KeyRangeStats> ranges = keyRanges(cells, cutoff);
    double rangeMax =
        ranges.stream().mapToDouble(AuditResult.KeyRangeStats::recentShare).max().orElse(0);
    return new AuditResult.Skew(
        n,
        List.copyOf(listed),
        LayoutSimulator.maxOverMean(rows),
        LayoutSimulator.maxOverMean(cellCounts),
        LayoutSimulator.maxOverMean(bytes),
        KeyShape.round(gini(cellCounts)),
        LayoutSimulator.maxOverMean(recent),
        cutoff,
        List.copyOf(hottest.subList(0, Math.min(5, hottest.size()))),
        ranges,
        ranges.isEmpty() ? 0 : KeyShape.round(rangeMax * ranges.size()));
  }

  /**
   * The share of a region's cells written before {@code ts}: exact at the region's oldest and
   * newest cell, from its sampled write times in between (evenly spread when a tiny region had none
   * sampled).
   */
  static double fractionBefore(RegionProfile r, long ts) {
    if (r.cells == 0 || ts <= r.oldestTs) {
      return 0;
    }
    if (ts > r.newestTs) {
      return 1;
    }
    if (r.timestamps.isEmpty()) {
      return (ts - r.oldestTs) / (double) (r.newestTs - r.oldestTs + 1);
    }
    return r.timestamps.rankBelow(ts);
  }

  /**
   * The cell sample (sorted by key) cut into equal-count key ranges, with each range's share of
   * recent cells.
   */
  static List<AuditResult.KeyRangeStats> keyRanges(List<Samples.Cell> cells, long cutoff) {
    if (cells.size() < KEY_RANGES * 10) {
      return List.of();
    }
    List<Samples.Cell> sorted = cells;
    long recentTotal = sorted.stream().filter(c -> c.ts() >= cutoff).count();
    List<AuditResult.KeyRangeStats> out = new ArrayList<>();
    for (int k = 0; k < KEY_RANGES; k++) {
      int from = k * sorted.size() / KEY_RANGES;
      int to = (k + 1) * sorted.size() / KEY_RANGES;
      long recent = 0;
      for (Samples.Cell c : sorted.subList(from, to)) {
        if (c.ts() >= cutoff) {
          recent++;
        }
      }
      out.add(
          new AuditResult.KeyRangeStats(
              k,
              Bytes.toStringBinary(sorted.get(from).key()),
              KeyShape.round((to - from) / (double) sorted.size()),
              recentTotal == 0 ? 0 : KeyShape.round(recent / (double) recentTotal)));
    }
    return List.copyOf(out);
  }

  static List<Samples.Cell> sortedByKey(List<Samples.Cell> cells) {
    // Each task's cells come in key order (BottomK keeps it): TimSort merges those runs.
    List<Samples.Cell> sorted = new ArrayList<>(cells);
    sorted.sort(Comparator.comparing(Samples.Cell::key, Bytes.BYTES_COMPARATOR));
    return sorted;
  }

  /** The Gini coefficient: 0 when every region holds the same, near 1 when one holds all. */
  static double gini(double[] values) {
    int n = values.length;
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    double sum = 0;
    double weighted = 0;
    for (int i = 0; i < n; i++) {
      sum += sorted[i];
      weighted += (i + 1) * sorted[i];
    }
    return sum == 0 || n < 2 ? 0 : (2 * weighted) / (n * sum) - (n + 1.0) / n;
  }

  static AuditResult.Heatmap heatmap(
      TableProfile p, AuditResult.Skew skew, long oldest, long newest, List<Samples.Cell> cells) {
    if (p.cells == 0) {
      return new AuditResult.Heatmap("regions", List.of(), List.of(), new long[0][0]);
    }
    long from = oldest;
    long to = newest + 1;
    double width = (to - from) / (double) TIME_BUCKETS;
    List<Long> timeStarts = new ArrayList<>();
    for (int t = 0; t < TIME_BUCKETS; t++) {
      timeStarts.add(from + Math.round(t * width));
    }
    if (skew.regionCount() >= MIN_REGIONS_FOR_HEATMAP || cells.size() < KEY_RANGES * 10) {
      return regionHeatmap(p, skew.regionCount(), timeStarts, to);
    }
    List<Samples.Cell> sorted = cells;
    long[][] counts = new long[KEY_RANGES][TIME_BUCKETS];
    List<String> labels = new ArrayList<>();
    double scale = p.cells / (double) sorted.size();
    for (int k = 0; k < KEY_RANGES; k++) {
      int lo = k * sorted.size() / KEY_RANGES;
      int hi = (k + 1) * sorted.size() / KEY_RANGES;
      labels.add(Bytes.toStringBinary(sorted.get(lo).key()));
      double[] row = new double[TIME_BUCKETS];
      for (Samples.Cell c : sorted.subList(lo, hi)) {
        int t = (int) Math.min(TIME_BUCKETS - 1, Math.max(0, (c.ts() - from) / width));
        row[t] += scale;
      }
      for (int t = 0; t < TIME_BUCKETS; t++) {
        counts[k][t] = Math.round(row[t]);
      }
    }
    return new AuditResult.Heatmap(
        "key-ranges", List.copyOf(labels), List.copyOf(timeStarts), counts);
  }

  private static AuditResult.Heatmap regionHeatmap(
      TableProfile p, int regionCount, List<Long> timeStarts, long to) {
    int buckets = Math.min(regionCount, MAX_HEATMAP_KEY_BUCKETS);
    long[][] counts = new long[buckets][TIME_BUCKETS];
    List<String> labels = new ArrayList<>();
    List<byte[]> starts = p.settings().regionStarts();
    for (int b = 0; b < buckets; b++) {
      int firstRegion = b * regionCount / buckets;
      int lastRegion = (b + 1) * regionCount / buckets;
      String start = Bytes.toStringBinary(starts.get(firstRegion));
      labels.add(
          (lastRegion - firstRegion == 1
                  ? "region " + firstRegion
                  : "regions " + firstRegion + "-" + (lastRegion - 1))
              + (start.isEmpty() ? "" : " @ " + start));
      for (int i = firstRegion; i < lastRegion; i++) {
        RegionProfile r = p.regions.get(i);
        if (r == null) {
          continue;
        }
        double previous = 0;
        for (int t = 0; t < TIME_BUCKETS; t++) {
          long upper = t + 1 < TIME_BUCKETS ? timeStarts.get(t + 1) : to;
          double rank = t + 1 < TIME_BUCKETS ? fractionBefore(r, upper) : 1;
          counts[b][t] += Math.round((rank - previous) * r.cells);
          previous = rank;
        }
      }
    }
    return new AuditResult.Heatmap("regions", List.copyOf(labels), List.copyOf(timeStarts), counts);
  }
}
