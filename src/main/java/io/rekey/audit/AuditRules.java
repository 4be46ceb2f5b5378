package io.rekey.audit;

import io.rekey.common.Finding;
import io.rekey.common.Severity;
import io.rekey.common.Sizes;
import io.rekey.schema.DesignRules;
import io.rekey.schema.FamilyDescription;
import io.rekey.schema.TableDescription;
import io.rekey.sketch.Weighted;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The HBase schema design rules judged on the data itself: keys that follow time, a region that
 * takes the new writes, long keys, wide rows, huge cells, stored versions against the settings,
 * delete markers, a heavy first key field; plus the settings rules of {@link DesignRules}. Each
 * finding carries its numbers and what to do. Pure.
 */
public final class AuditRules {
  /** A region (or key range) taking more than this multiple of the mean of recent writes is hot. */
  public static final double HOT_RATIO = 3.0;

  /** Stored cells over the regions more uneven than this (max/mean) is skew. */
  public static final double STORED_SKEW_RATIO = 3.0;

  /** A single first-field value holding more than this share of cells is a hot prefix. */
  public static final double HOT_PREFIX_SHARE = 0.2;

  /** Delete markers above this share of cells slow reads until a major compaction. */
  public static final double DELETE_MARKER_SHARE = 0.1;

  /** Recent sampled cells below this say too little about key ranges. */
  static final int MIN_RECENT_SAMPLE = 160;

  private AuditRules() {}

  /** Every rule that fires, most severe first. */
  public static List<Finding> check(AuditResult r, TableDescription description, long nowMillis) {
    List<Finding> findings = new ArrayList<>();
    if (description != null) {
      findings.addAll(DesignRules.check(description));
    }
    if (r.totals().cells() == 0) {
      findings.add(
          new Finding(
              "empty-table",
              Severity.INFO,
              r.table(),
              "no cells were read",
              "nothing to profile; audit the table once it holds data"));
      return sorted(findings);
    }
    monotonic(r, findings);
    hotspot(r, findings);
    storedSkew(r, findings);
    longKeys(r, findings);
    extremes(r, findings);
    versionsAndTtl(r, description, nowMillis, findings);
    deleteMarkers(r, findings);
    hotPrefix(r, findings);
    return sorted(findings);
  }

  private static List<Finding> sorted(List<Finding> findings) {
    findings.sort(Comparator.comparing(Finding::severity).reversed());
    return List.copyOf(findings);
  }

  private static String recommendation(AuditResult r) {
    String name = r.whatIf().recommended();
    if (name == null) {
      return "";
    }
    return r.whatIf().layouts().stream()
        .filter(o -> o.name().equals(name))
        .findFirst()
        .map(o -> "; the what-if simulation recommends " + o.spec())
        .orElse("");
  }

  private static void monotonic(AuditResult r, List<Finding> findings) {
    AuditResult.Monotonic m = r.monotonic();
    if (!m.monotonic()) {
      return;
    }
    List<String> evidence = new ArrayList<>();
    if (Math.abs(m.keyTimeCorrelation()) >= KeyShape.MONOTONIC_CORRELATION) {
      evidence.add(
          String.format(
              "key order and write time correlate at %.3f over %d sampled rows",
              m.keyTimeCorrelation(), m.sampleRows()));
    }
    if (!m.prefixKind().equals("none")) {
      evidence.add(
          String.format(
              "%.1f%% of sampled keys start with %s",
              m.prefixShare() * 100, m.prefixKind().replace('-', ' ')));
    }
    findings.add(
        new Finding(
            "monotonic-key",
            Severity.ERROR,
            r.table(),
            String.join("; ", evidence),
            "keys that follow time send every new write to the region at one end of the key"
                + " space, whatever the number of regions; put a salt or hash prefix first, or"
                + " reverse the leading number"
                + recommendation(r)));
  }

  private static void hotspot(AuditResult r, List<Finding> findings) {
    AuditResult.Skew s = r.skew();
    String when =
        "the newest 10% of cells (written at or after "
            + java.time.Instant.ofEpochMilli(s.recentCutoffTs())
            + ")";
    if (s.regionCount() > 1 && s.recentMaxOverMean() > HOT_RATIO) {
      AuditResult.RegionStats hot = s.hottestRecent().get(0);
      long recentTotal = s.regions().stream().mapToLong(AuditResult.RegionStats::recentCells).sum();
      findings.add(
          new Finding(
              "recent-write-hotspot",
              Severity.ERROR,
              "region " + hot.index() + " (start key '" + hot.startKey() + "')",
              String.format(
                  "takes %.0f%% of %s, %.1f× the mean of %d regions",
                  recentTotal == 0 ? 0 : 100.0 * hot.recentCells() / recentTotal,
                  when,
                  s.recentMaxOverMean(),
                  s.regionCount()),
              "one region server takes the write load while the others idle; spread new keys"
                  + " with a salt or hash prefix"
                  + recommendation(r)));
      return;
    }
    long recentSampled =
        Math.round(r.sampling().cellSample() * (1 - AuditAnalysis.RECENT_QUANTILE));
    if (!s.keyRanges().isEmpty()
        && recentSampled >= MIN_RECENT_SAMPLE
        && s.keyRangeRecentMaxOverMean() > HOT_RATIO) {
      AuditResult.KeyRangeStats hot =
          s.keyRanges().stream()
              .max(Comparator.comparingDouble(AuditResult.KeyRangeStats::recentShare))
              .orElseThrow();
      findings.add(
          new Finding(
              "recent-write-hotspot",
              Severity.ERROR,
              "key range "
                  + (hot.index() + 1)
                  + "/"
                  + s.keyRanges().size()
                  + " (from '"
                  + hot.startKey()
                  + "')",
              String.format(
                  "of %d equal-count key ranges, this one takes %.0f%% of %s, %.1f× the mean:"
                      + " split the table any way and one region still takes those writes",
                  s.keyRanges().size(),
                  hot.recentShare() * 100,
                  when,
                  s.keyRangeRecentMaxOverMean()),
              "spread new keys with a salt or hash prefix" + recommendation(r)));
    }
  }

  private static void storedSkew(AuditResult r, List<Finding> findings) {
    AuditResult.Skew s = r.skew();
    if (s.regionCount() > 1 && s.cellsMaxOverMean() > STORED_SKEW_RATIO) {
      findings.add(
          new Finding(
              "stored-skew",
              Severity.WARN,
              r.table(),
              String.format(
                  "the fullest region holds %.1f× the mean cells of %d regions (Gini %.2f)",
                  s.cellsMaxOverMean(), s.regionCount(), s.cellsGini()),
              "reads and compactions concentrate on a few regions; split the full ones, or"
                  + " re-key with a salt so data spreads on its own"));
    }
  }

  private static void longKeys(AuditResult r, List<Finding> findings) {
    AuditResult.Extremes e = r.extremes();
    if (e.longKeyRows() == 0) {
      return;
    }
    double share = e.longKeyRows() / (double) r.totals().rows();
    findings.add(
        new Finding(
            "long-keys",
            share >= 0.01 ? Severity.WARN : Severity.INFO,
            r.table(),
            String.format(
                "%d rows (%.1f%%) have keys over %d bytes (p99 %.0f, max %.0f); keys take %s of"
                    + " storage, stored again in every cell",
                e.longKeyRows(),
                share * 100,
                e.longKeyBytes(),
                r.distributions().keyLength().p99(),
                r.distributions().keyLength().max(),
                Sizes.human(r.totals().keyBytesStored())),
            "shorten the key: fixed-width binary numbers instead of text, short codes instead"
                + " of names, a hash of long parts"));
  }

  private static void extremes(AuditResult r, List<Finding> findings) {
    AuditResult.Extremes e = r.extremes();
    if (e.wideRows() > 0) {
      Samples.RowSize widest = e.widestRows().get(0);
      findings.add(
          new Finding(
              "wide-rows",
              Severity.WARN,
              r.table(),
              String.format(
                  "%d rows have more than %,d columns; the widest, '%s', has %,d (%s)",
                  e.wideRows(),
                  e.wideRowColumns(),
                  widest.key(),
                  widest.columns(),
                  Sizes.human(widest.bytes())),
              "a row lives in one region and cannot be split: move the qualifier's varying part"
                  + " (often a time or id) into the row key, making tall rows instead of wide"));
    }
    if (e.hugeCells() > 0) {
      Samples.BigCell biggest = e.largestCells().get(0);
      findings.add(
          new Finding(
              "huge-cells",
              Severity.WARN,
              r.table(),
              String.format(
                  "%d cells are over %s; the largest, %s in row '%s', is %s",
                  e.hugeCells(),
                  Sizes.human(e.hugeCellBytes()),
                  biggest.column(),
                  biggest.row(),
                  Sizes.human(biggest.valueBytes())),
              "cells this large stall region servers and RPCs; enable MOB for the family or"
                  + " store the objects elsewhere and keep a reference"));
    }
  }

  private static void versionsAndTtl(
      AuditResult r, TableDescription description, long now, List<Finding> findings) {
    for (AuditResult.FamilyStats f : r.families()) {
      FamilyDescription d = AuditAnalysis.settingsOf(description, f.name());
      if (d == null || f.cells() == 0) {
        continue;
      }
      String subject = "family " + f.name();
      if (f.maxVersionsStored() > d.maxVersions()) {
        findings.add(
            new Finding(
                "versions-above-setting",
                Severity.INFO,
                subject,
                "up to "
                    + f.maxVersionsStored()
                    + " versions stored, VERSIONS => "
                    + d.maxVersions(),
                "the extra versions are hidden from reads and go at the next major compaction;"
                    + " run one if the space matters"));
      } else if (d.maxVersions() > 1 && f.maxVersionsStored() <= 1) {
        findings.add(
            new Finding(
                "versions-unused",
                Severity.INFO,
                subject,
                "VERSIONS => " + d.maxVersions() + " but no column holds more than one version",
                "fine if history is wanted later; otherwise VERSIONS => 1 states the intent"));
      }
      if (d.hasTtl() && r.totals().oldestTs() < now - d.ttlSeconds() * 1000L) {
        findings.add(
            new Finding(
                "expired-cells-stored",
                Severity.INFO,
                subject,
                "TTL => "
                    + d.ttlSeconds()
                    + " s but cells from "
                    + java.time.Instant.ofEpochMilli(r.totals().oldestTs())
                    + " are stored",
                "expired cells are hidden from reads and go at the next major compaction"));
      }
    }
  }

  private static void deleteMarkers(AuditResult r, List<Finding> findings) {
    double share = r.totals().deleteMarkers() / (double) r.totals().cells();
    if (share > DELETE_MARKER_SHARE) {
      findings.add(
          new Finding(
              "many-delete-markers",
              Severity.WARN,
              r.table(),
              String.format(
                  "%d delete markers, %.0f%% of stored cells",
                  r.totals().deleteMarkers(), share * 100),
              "every read skips them until a major compaction removes them; compact, and check"
                  + " whether a TTL would do the deleting"));
    }
  }

  private static void hotPrefix(AuditResult r, List<Finding> findings) {
    AuditResult.FirstField f = r.prefixes().firstField();
    if (f == null || f.topByCells().isEmpty() || f.distinctValues() < 2) {
      return;
    }
    Weighted top = f.topByCells().get(0);
    double share = top.weight() / (double) r.totals().cells();
    if (share > HOT_PREFIX_SHARE) {
      findings.add(
          new Finding(
              "hot-prefix",
              Severity.WARN,
              "key field " + f.name(),
              String.format(
                  "'%s' holds %.0f%% of cells (of about %d distinct values)",
                  top.item(), share * 100, f.distinctValues()),
              "every key starting with it lands in the same region(s); salt over the whole key or"
                  + " add a field after it to the salt, and read it with one scan per bucket"));
    }
  }
}
