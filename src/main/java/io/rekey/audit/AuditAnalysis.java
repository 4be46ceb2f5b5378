package io.rekey.audit;

import io.rekey.common.Finding;
import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyLayout;
import io.rekey.keys.KeyReject;
import io.rekey.schema.FamilyDescription;
import io.rekey.schema.TableDescription;
import io.rekey.sketch.Quantiles;
import io.rekey.sketch.Weighted;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Turns a merged {@link TableProfile} into an {@link AuditResult}: totals, distributions, skew over
 * regions and key ranges, the write-time heatmap, the monotonic-key verdict, the what-if layouts
 * and the findings. Pure: no cluster, no Spark.
 *
 * <p>A sequence of small pure steps from one profile to one result, each a method, read top to
 * bottom in the order of the report; where the data and the recent writes fall (skew, key ranges,
 * the heatmap) is {@link SkewAnalysis}'s.
 */
public final class AuditAnalysis {
  /** Recent writes are the newest tenth of the cells. */
  public static final double RECENT_QUANTILE = 0.9;

  static final int HISTOGRAM_BINS = 20;
  static final int TOP = 20;
  static final int TOP_PREFIXES = 32;

  private AuditAnalysis() {}

  /**
   * What the audit was asked to do, for the report.
   *
   * @param description the table's settings and regions, or null when unknown
   * @param candidates the layouts to simulate
   * @param whatIfRegions regions of the simulated tables
   */
  public record Context(
      String table,
      String readFrom,
      AuditResult.Sampling sampling,
      String sourceKeySpec,
      TableDescription description,
      List<LayoutSimulator.Candidate> candidates,
      int whatIfRegions,
      long auditedAtMillis,
      double seconds) {}

  public static AuditResult analyze(TableProfile p, Context context) {
    // The analysis runs after the last task, so its serial time is the audit's: the samples are
    // decoded apart, the cell sample is sorted and the layouts are simulated on other threads,
    // while this one computes what needs neither.
    CompletableFuture<List<Samples.Row>> rowsDecoded =
        CompletableFuture.supplyAsync(p.rowSample::items);
    CompletableFuture<List<Samples.Cell>> cellsDecoded =
        CompletableFuture.supplyAsync(p.cellSample::items);
    // Sorted by key once: the key ranges and the heatmap both cut it into equal-count ranges.
    CompletableFuture<List<Samples.Cell>> cellsSorted =
        cellsDecoded.thenApplyAsync(SkewAnalysis::sortedByKey);
    Quantiles allTimestamps = new Quantiles();
    p.regions.values().forEach(r -> allTimestamps.merge(r.timestamps));
    long cutoff = (long) allTimestamps.quantile(RECENT_QUANTILE);
    long oldest = p.regions.values().stream().mapToLong(r -> r.oldestTs).min().orElse(0);
    long newest = p.regions.values().stream().mapToLong(r -> r.newestTs).max().orElse(0);
    AuditResult.Totals totals =
        new AuditResult.Totals(
            p.rows,
            p.cells,
            p.bytes,
            p.deleteMarkers,
            p.cells == 0 ? 0 : oldest,
            p.cells == 0 ? 0 : newest,
            p.keyBytesStored);
    String sourceSpec = context.sourceKeySpec() == null ? "key" : context.sourceKeySpec();
    List<byte[]> currentSplits =
        p.settings().regionStarts().subList(1, p.settings().regionStarts().size());
    CompletableFuture<LayoutSimulator.Decoded> decoding =
        rowsDecoded.thenCombineAsync(
            cellsDecoded,
            (rows, cells) ->
                LayoutSimulator.decode(sourceSpec, currentSplits, rows, cells, cutoff));
    // Independent and pure: the layouts are simulated side by side, and reported in the
    // candidates' order.
    CompletableFuture<List<AuditResult.LayoutOutcome>> simulated =
        decoding.thenApplyAsync(
            decoded ->
                context.candidates().parallelStream()
                    .map(c -> LayoutSimulator.simulate(c, context.whatIfRegions(), decoded))
                    .toList());
    CompletableFuture<AuditResult.Monotonic> monotonicity =
        rowsDecoded.thenApplyAsync(rows -> KeyShape.of(rows, p.rows));
    List<AuditResult.FamilyStats> families = families(p, context.description());
    AuditResult.Distributions distributions = distributions(p);
    AuditResult.Extremes extremes = extremes(p);
    List<Samples.Cell> cellSample = joined(cellsSorted);
    AuditResult.Skew skew = SkewAnalysis.skew(p, cutoff, cellSample);
    AuditResult.Heatmap heatmap = SkewAnalysis.heatmap(p, skew, oldest, newest, cellSample);
    List<Samples.Row> rowSample = joined(rowsDecoded);
    AuditResult.Prefixes prefixes = prefixes(p, rowSample, joined(decoding));
    AuditResult.Monotonic monotonic = joined(monotonicity);
    List<AuditResult.LayoutOutcome> outcomes = joined(simulated);
    LayoutSimulator.Recommendation recommendation = LayoutSimulator.recommend(outcomes);
    AuditResult draft =
        new AuditResult(
            AuditResult.SCHEMA_VERSION,
            context.table(),
            context.readFrom(),
            new AuditResult.Sampling(
                context.sampling().mode(),
                context.sampling().fraction(),
                context.sampling().rowsPerSplit(),
                rowSample.size(),
                cellSample.size(),
                context.sampling().readTasks(),
                context.sampling().largestTaskProfileBytes()),
            context.sourceKeySpec(),
            context.auditedAtMillis(),
            context.seconds(),
            totals,
            families,
            distributions,
            extremes,
            skew,
            prefixes,
            heatmap,
            monotonic,
            new AuditResult.WhatIf(
                context.whatIfRegions(),
                List.copyOf(outcomes),
                recommendation.name(),
                recommendation.why()),
            List.of());
    List<Finding> findings =
        AuditRules.check(draft, context.description(), context.auditedAtMillis());
    return withFindings(draft, findings);
  }

  /** What a step computed on another thread; its failure as if it had run on this one. */
  static <T> T joined(CompletableFuture<T> step) {
    try {
      return step.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  private static AuditResult withFindings(AuditResult r, List<Finding> findings) {
    return new AuditResult(
        r.schemaVersion(),
        r.table(),
        r.readFrom(),
        r.sampling(),
        r.sourceKey(),
        r.auditedAtMillis(),
        r.seconds(),
        r.totals(),
        r.families(),
        r.distributions(),
        r.extremes(),
        r.skew(),
        r.prefixes(),
        r.heatmap(),
        r.monotonic(),
        r.whatIf(),
        List.copyOf(findings));
  }

  private static List<AuditResult.FamilyStats> families(
      TableProfile p, TableDescription description) {
    List<AuditResult.FamilyStats> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (FamilyProfile f : p.families.values()) {
      FamilyDescription settings = settingsOf(description, f.name);
      out.add(
          new AuditResult.FamilyStats(
              f.name,
              f.cells,
              f.bytes,
              f.deleteMarkers,
              f.qualifiers.distinctQualifiers(),
              f.qualifiers.isExact(),
              f.maxVersions,
              settings == null ? 0 : settings.maxVersions(),
              settings == null ? 0 : settings.ttlSeconds(),
              f.qualifiers.topByCells(TOP),
              f.qualifiers.topByBytes(TOP)));
      seen.add(f.name);
    }
    if (description != null) {
      for (FamilyDescription d : description.families()) {
        if (!seen.contains(d.name())) {
          out.add(
              new AuditResult.FamilyStats(
                  d.name(),
                  0,
                  0,
                  0,
                  0,
                  true,
                  0,
                  d.maxVersions(),
                  d.ttlSeconds(),
                  List.of(),
                  List.of()));
        }
      }
    }
    return List.copyOf(out);
  }

  static FamilyDescription settingsOf(TableDescription description, String family) {
    if (description == null) {
      return null;
    }
    return description.families().stream()
        .filter(d -> d.name().equals(family))
        .findFirst()
        .orElse(null);
  }

  private static AuditResult.Distributions distributions(TableProfile p) {
    return new AuditResult.Distributions(
        p.keyLength.summary(HISTOGRAM_BINS),
        p.cellsPerRow.summary(HISTOGRAM_BINS),
        p.columnsPerRow.summary(HISTOGRAM_BINS),
        p.bytesPerRow.summary(HISTOGRAM_BINS),
        p.valueSize.summary(HISTOGRAM_BINS),
        p.versionsPerColumn.summary(HISTOGRAM_BINS));
  }

  private static AuditResult.Extremes extremes(TableProfile p) {
    ProfileSettings s = p.settings();
    return new AuditResult.Extremes(
        p.widestRows.heaviestFirst().stream().map(Samples.RawRowSize::printable).toList(),
        p.largestRows.heaviestFirst().stream().map(Samples.RawRowSize::printable).toList(),
        p.largestCells.heaviestFirst().stream().map(Samples.RawBigCell::printable).toList(),
        p.wideRows,
        s.wideRowColumns(),
        p.hugeCells,
        s.hugeCellBytes(),
        p.longKeyRows,
        s.longKeyBytes());
  }

  private static AuditResult.Prefixes prefixes(
      TableProfile p, List<Samples.Row> rowSample, LayoutSimulator.Decoded decoded) {
    List<Weighted> firstByte = new ArrayList<>();
    for (int b = 0; b < 256; b++) {
      if (p.prefixes.firstByteCells[b] > 0) {
        firstByte.add(
            new Weighted(
                Bytes.toStringBinary(new byte[] {(byte) b}), p.prefixes.firstByteCells[b]));
      }
    }
    List<Weighted> twoBytes = new ArrayList<>();
    for (Map.Entry<Integer, long[]> e : p.prefixes.twoByteCells.entrySet()) {
      int prefix = e.getKey();
      byte[] bytes =
          prefix < 0
              ? new byte[] {(byte) (-1 - prefix)}
              : new byte[] {(byte) (prefix >>> 8), (byte) prefix};
      twoBytes.add(new Weighted(Bytes.toStringBinary(bytes), e.getValue()[1]));
    }
    twoBytes.sort(
        Comparator.comparingLong(Weighted::weight).reversed().thenComparing(Weighted::item));
    AuditResult.FirstField first = null;
    KeyLayout sourceKey = p.settings().sourceKey();
    String field = sourceKey == null ? null : sourceKey.firstKeyField();
    if (field != null) {
      first = firstField(p, sourceKey, field, rowSample, decoded);
    }
    return new AuditResult.Prefixes(
        List.copyOf(firstByte),
        List.copyOf(twoBytes.subList(0, Math.min(TOP_PREFIXES, twoBytes.size()))),
        first);
  }

  /**
   * The first key field: distinct values from the tasks' HyperLogLog, the heaviest values from the
   * row sample (scaled to the table), and the whole key checked against the spec on the sample.
   */
  private static AuditResult.FirstField firstField(
      TableProfile p,
      KeyLayout sourceKey,
      String field,
      List<Samples.Row> rowSample,
      LayoutSimulator.Decoded decoded) {
    List<String> examples = new ArrayList<>(p.mismatchExamples);
    long sampleMismatches = 0;
    Map<String, long[]> weights = new HashMap<>();
    for (int i = 0; i < rowSample.size(); i++) {
      Samples.Row row = rowSample.get(i);
      // Read for the what-if layouts already; read again only where that failed, which may be a
      // missing bound column rather than the key.
      Map<String, FieldValue> fields = decoded.rowFields(i);
      FieldValue value = fields == null ? null : fields.get(field);
      try {
        if (value == null) {
          value = sourceKey.decode(row.key()).get(field);
        }
      } catch (KeyReject e) {
        sampleMismatches++;
        if (examples.size() < 5) {
          examples.add(Bytes.toStringBinary(row.key()) + ": " + e.getMessage());
        }
        continue;
      }
      long[] w = weights.computeIfAbsent(value.printable(), v -> new long[2]);
      w[0]++;
      w[1] += row.cells();
    }
    double scale = rowSample.isEmpty() ? 0 : p.rows / (double) rowSample.size();
    return new AuditResult.FirstField(
        field,
        p.firstFieldDistinct.estimate(),
        heaviest(weights, 1, scale),
        heaviest(weights, 0, scale),
        rowSample.size(),
        p.sourceKeyMismatches,
        sampleMismatches,
        List.copyOf(examples));
  }

  /** The heaviest values seen at least twice in the sample (once says nothing), scaled. */
  private static List<Weighted> heaviest(Map<String, long[]> weights, int index, double scale) {
    List<Weighted> out = new ArrayList<>();
    for (Map.Entry<String, long[]> e : weights.entrySet()) {
      if (e.getValue()[0] >= 2) {
        out.add(new Weighted(e.getKey(), Math.round(e.getValue()[index] * scale)));
      }
    }
    out.sort(Comparator.comparingLong(Weighted::weight).reversed().thenComparing(Weighted::item));
    return List.copyOf(out.subList(0, Math.min(TOP, out.size())));
  }
}
