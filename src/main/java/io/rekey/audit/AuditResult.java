package io.rekey.audit;

import io.rekey.common.Finding;
import io.rekey.common.JsonResult;
import io.rekey.sketch.Distribution;
import io.rekey.sketch.Weighted;
import java.util.List;

/**
 * What {@code audit} found, as written to {@code audit.json} (schema version {@link
 * #SCHEMA_VERSION}, documented in the README). Its size is bounded whatever the table's size: top
 * lists, histograms and the heatmap have fixed lengths, regions are listed up to {@link
 * #MAX_REGIONS_LISTED}.
 *
 * @param table the table audited
 * @param readFrom what was read: snapshot or live scan
 * @param sampling how much of the table was read; counts are of what was read
 * @param sourceKey the --source-key given, or null
 * @param auditedAtMillis when the audit ran (epoch millis)
 * @param seconds wall time of the run
 * @param totals rows, cells, bytes, delete markers and the time range of what was read
 * @param families per column family: cells, bytes, versions, qualifiers
 * @param distributions quantiles and histograms of key length, cells, columns and bytes per row,
 *     value size and versions
 * @param extremes the widest and largest rows and cells
 * @param skew how evenly data and recent writes spread over regions and key ranges
 * @param prefixes the weight of key prefixes
 * @param heatmap where data was written over time
 * @param monotonic whether keys follow time (a hotspot for new writes)
 * @param whatIf the candidate layouts simulated, and the one recommended
 * @param findings the design rules that fired, most severe first
 */
public record AuditResult(
    int schemaVersion,
    String table,
    String readFrom,
    Sampling sampling,
    String sourceKey,
    long auditedAtMillis,
    double seconds,
    Totals totals,
    List<FamilyStats> families,
    Distributions distributions,
    Extremes extremes,
    Skew skew,
    Prefixes prefixes,
    Heatmap heatmap,
    Monotonic monotonic,
    WhatIf whatIf,
    List<Finding> findings)
    implements JsonResult {
  public static final int SCHEMA_VERSION = 1;
  public static final int MAX_REGIONS_LISTED = 1000;

  /**
   * How the table was read.
   *
   * @param mode {@code all}, {@code fraction} or {@code rows-per-split}
   * @param fraction the share of rows read with mode fraction
   * @param rowsPerSplit rows read per split with mode rows-per-split
   * @param rowSample rows in the uniform row sample, {@code cellSample} cells in the cell sample
   * @param cellSample cells in the cell sample
   * @param readTasks the tasks that read the table
   * @param largestTaskProfileBytes the largest profile one task sent to the driver: bounded by the
   *     sample sizes, whatever the table's size
   */
  public record Sampling(
      String mode,
      double fraction,
      long rowsPerSplit,
      int rowSample,
      int cellSample,
      int readTasks,
      long largestTaskProfileBytes) {
    /** The same with what the read tasks did. */
    public Sampling withTasks(int tasks, long largestProfileBytes) {
      return new Sampling(
          mode, fraction, rowsPerSplit, rowSample, cellSample, tasks, largestProfileBytes);
    }
  }

  /**
   * @param rows rows read
   * @param cells cells read
   * @param bytes bytes of the cells read
   * @param deleteMarkers delete markers read
   * @param oldestTs the oldest cell timestamp (epoch millis)
   * @param newestTs the newest cell timestamp (epoch millis)
   * @param keyBytesStored the row key is stored again in every cell: the sum of key length × cells
   */
  public record Totals(
      long rows,
      long cells,
      long bytes,
      long deleteMarkers,
      long oldestTs,
      long newestTs,
      long keyBytesStored) {}

  /**
   * @param name the family
   * @param cells its cells
   * @param bytes its bytes
   * @param deleteMarkers its delete markers
   * @param distinctQualifiers its distinct qualifiers
   * @param qualifiersExact whether the qualifier counts are exact (few distinct qualifiers) or
   *     sketch estimates
   * @param maxVersionsStored the most versions one column holds
   * @param settingsVersions the family's VERSIONS setting, or 0 when the family is not in the
   *     table's descriptor
   * @param settingsTtlSeconds the family's TTL setting
   * @param topQualifiersByCells the qualifiers with most cells
   * @param topQualifiersByBytes the qualifiers with most bytes
   */
  public record FamilyStats(
      String name,
      long cells,
      long bytes,
      long deleteMarkers,
      long distinctQualifiers,
      boolean qualifiersExact,
      long maxVersionsStored,
      int settingsVersions,
      int settingsTtlSeconds,
      List<Weighted> topQualifiersByCells,
      List<Weighted> topQualifiersByBytes) {}

  /**
   * Quantiles and histograms of the per-row and per-cell measures.
   *
   * @param keyLength row key length in bytes
   * @param cellsPerRow cells per row
   * @param columnsPerRow distinct columns per row
   * @param bytesPerRow bytes per row
   * @param valueSize value size in bytes
   * @param versionsPerColumn versions per column
   */
  public record Distributions(
      Distribution keyLength,
      Distribution cellsPerRow,
      Distribution columnsPerRow,
      Distribution bytesPerRow,
      Distribution valueSize,
      Distribution versionsPerColumn) {}

  /**
   * The widest and largest rows and cells, and how many pass the thresholds.
   *
   * @param widestRows the rows with most columns
   * @param largestRows the rows with most bytes
   * @param largestCells the largest values
   * @param wideRows rows over the wide-row threshold
   * @param wideRowColumns the wide-row threshold in columns
   * @param hugeCells cells over the huge-cell threshold
   * @param hugeCellBytes the huge-cell threshold in bytes
   * @param longKeyRows rows whose key is over the long-key threshold
   * @param longKeyBytes the long-key threshold in bytes
   */
  public record Extremes(
      List<Samples.RowSize> widestRows,
      List<Samples.RowSize> largestRows,
      List<Samples.BigCell> largestCells,
      long wideRows,
      long wideRowColumns,
      long hugeCells,
      long hugeCellBytes,
      long longKeyRows,
      int longKeyBytes) {}

  /**
   * How evenly the stored data and the newest writes spread over the current regions.
   *
   * @param regionCount regions of the table
   * @param regions the regions, up to the listing limit
   * @param rowsMaxOverMean the fullest region's rows over the mean
   * @param cellsMaxOverMean the fullest region's cells over the mean
   * @param bytesMaxOverMean the fullest region's bytes over the mean
   * @param cellsGini the Gini coefficient of cells over regions (0 even, 1 all in one)
   * @param recentMaxOverMean the region taking most recent writes, over the mean
   * @param recentCutoffTs cells at or after this timestamp are the newest 10%: "recent writes"
   * @param hottestRecent the regions taking most recent writes
   * @param keyRanges the same for equal-count key ranges (from the cell sample), which shows where
   *     new data lands even in a table with one region
   * @param keyRangeRecentMaxOverMean the key range taking most recent writes, over the mean
   */
  public record Skew(
      int regionCount,
      List<RegionStats> regions,
      double rowsMaxOverMean,
      double cellsMaxOverMean,
      double bytesMaxOverMean,
      double cellsGini,
      double recentMaxOverMean,
      long recentCutoffTs,
      List<RegionStats> hottestRecent,
      List<KeyRangeStats> keyRanges,
      double keyRangeRecentMaxOverMean) {}

  /**
   * A region: index, start key, what it stores, and its estimated share of recent writes.
   *
   * @param index the region's index, in key order
   * @param startKey its start key, printable
   * @param rows its rows
   * @param cells its cells
   * @param bytes its bytes
   * @param recentCells its estimated recent writes
   */
  public record RegionStats(
      int index, String startKey, long rows, long cells, long bytes, long recentCells) {}

  /**
   * An equal-count key range of the cell sample and its share of the sampled recent writes.
   *
   * @param index the range's index, in key order
   * @param startKey its start key, printable
   * @param cellShare its share of the sampled cells
   * @param recentShare its share of the sampled recent writes
   */
  public record KeyRangeStats(int index, String startKey, double cellShare, double recentShare) {}

  /**
   * Key-prefix weights: the first byte, the heaviest two-byte prefixes, and the first field of
   * {@code --source-key} when given.
   *
   * @param firstByteCells cells by the key's first byte
   * @param topTwoByteCells the heaviest two-byte prefixes by cells
   * @param firstField the first field of --source-key, or null when none was given
   */
  public record Prefixes(
      List<Weighted> firstByteCells, List<Weighted> topTwoByteCells, FirstField firstField) {}

  /**
   * The first field of {@code --source-key}.
   *
   * @param name the field's name
   * @param distinctValues a HyperLogLog estimate over every row (about 1.6% error)
   * @param topByCells the heaviest values, estimated from the {@code sampleRows} sampled rows and
   *     scaled to the table (a value holding a share p of rows is seen about p × sampleRows times)
   * @param topByRows the most frequent values by rows
   * @param sampleRows rows sampled
   * @param mismatches rows whose key could not be read up to the first field (exact)
   * @param sampleMismatches sampled rows whose whole key does not match {@code --source-key}, of
   *     {@code sampleRows}: rekey would reject about that share
   * @param mismatchExamples a few keys that do not match --source-key
   */
  public record FirstField(
      String name,
      long distinctValues,
      List<Weighted> topByCells,
      List<Weighted> topByRows,
      int sampleRows,
      long mismatches,
      long sampleMismatches,
      List<String> mismatchExamples) {}

  /**
   * Where data was written over time: {@code cells[k][t]} estimates the cells of key bucket {@code
   * k} written in time bucket {@code t}.
   *
   * @param keyAxis {@code regions} or {@code key-ranges}
   * @param keyLabels the key buckets' labels
   * @param timeStarts the time buckets' starts (epoch millis)
   * @param cells estimated cells per key bucket (rows) and time bucket (columns)
   */
  public record Heatmap(
      String keyAxis, List<String> keyLabels, List<Long> timeStarts, long[][] cells) {}

  /**
   * @param monotonic whether new rows land at one end of the key space
   * @param keyTimeCorrelation Spearman's rank correlation between key order and a row's newest
   *     timestamp over the row sample: near 1 (or -1) when keys follow time
   * @param sampleRows rows sampled
   * @param prefixKind what the keys start with: {@code epoch-millis}, {@code epoch-seconds}, {@code
   *     counter} or {@code none}
   * @param prefixShare the share of sampled keys that start that way
   */
  public record Monotonic(
      boolean monotonic,
      double keyTimeCorrelation,
      int sampleRows,
      String prefixKind,
      double prefixShare) {}

  /**
   * The simulated layouts and the one recommended.
   *
   * @param regions regions of the simulated tables
   * @param layouts each layout's simulated spread
   * @param recommended the name of the layout recommended
   * @param why why it is recommended
   */
  public record WhatIf(int regions, List<LayoutOutcome> layouts, String recommended, String why) {}

  /**
   * Where rows and recent writes would land in a table pre-split for one layout.
   *
   * @param name the layout's name
   * @param spec its target-key spec
   * @param regions regions of the simulated table
   * @param splitPoints the split points (printable, at most 64 shown)
   * @param rowsMaxOverMean the fullest region's rows over the mean
   * @param cellsMaxOverMean the fullest region's cells over the mean
   * @param recentMaxOverMean the region taking most recent writes, over the mean
   * @param avgKeyBytes the new keys' mean length
   * @param recentSampleCells the sampled recent writes behind {@code recentMaxOverMean}
   * @param sampleRejects sampled rows the layout would reject
   * @param problem why the layout could not be simulated, or null
   */
  public record LayoutOutcome(
      String name,
      String spec,
      int regions,
      List<String> splitPoints,
      double rowsMaxOverMean,
      double cellsMaxOverMean,
      double recentMaxOverMean,
      double avgKeyBytes,
      long recentSampleCells,
      long sampleRejects,
      String problem) {}
}
