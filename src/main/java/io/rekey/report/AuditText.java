package io.rekey.report;

import io.rekey.audit.AuditResult;
import io.rekey.common.Finding;
import io.rekey.common.Sizes;
import java.time.Instant;
import java.util.Locale;

/** The short console summary of an {@link AuditResult}; the HTML report has the rest. */
public final class AuditText {
  private AuditText() {}

  public static String summary(AuditResult r, String reportDir) {
    StringBuilder out = new StringBuilder();
    var t = r.totals();
    out.append(
        String.format(
            Locale.ROOT,
            "Audit of %s (%s%s) in %.1f s%n",
            r.table(),
            r.readFrom(),
            r.sampling().mode().equals("all") ? "" : ", sampled: " + sampling(r.sampling()),
            r.seconds()));
    out.append(
        String.format(
            Locale.ROOT,
            "  %,d rows, %,d cells, %s; %,d delete markers; written %s .. %s%n",
            t.rows(),
            t.cells(),
            Sizes.human(t.bytes()),
            t.deleteMarkers(),
            t.cells() == 0 ? "-" : Instant.ofEpochMilli(t.oldestTs()),
            t.cells() == 0 ? "-" : Instant.ofEpochMilli(t.newestTs())));
    var d = r.distributions();
    out.append(
        String.format(
            Locale.ROOT,
            "  key bytes p50/p99/max %.0f/%.0f/%.0f; cells per row p50/p99/max %.0f/%.0f/%.0f;"
                + " value bytes p99 %.0f%n",
            d.keyLength().p50(),
            d.keyLength().p99(),
            d.keyLength().max(),
            d.cellsPerRow().p50(),
            d.cellsPerRow().p99(),
            d.cellsPerRow().max(),
            d.valueSize().p99()));
    var s = r.skew();
    out.append(
        String.format(
            Locale.ROOT,
            "  %d region(s): stored cells max/mean %.2f (Gini %.2f), recent writes max/mean %.2f;"
                + " over %d equal-count key ranges, recent writes max/mean %.2f%n",
            s.regionCount(),
            s.cellsMaxOverMean(),
            s.cellsGini(),
            s.recentMaxOverMean(),
            s.keyRanges().size(),
            s.keyRangeRecentMaxOverMean()));
    var m = r.monotonic();
    out.append(
        String.format(
            Locale.ROOT,
            "  keys follow time: %s (key/time correlation %.3f over %d rows, prefix %s)%n",
            m.monotonic() ? "YES" : "no",
            m.keyTimeCorrelation(),
            m.sampleRows(),
            m.prefixKind()));
    out.append("\nWhat-if layouts (")
        .append(r.whatIf().regions())
        .append(" regions unless salted; max/mean, 1.00 is even)\n");
    int width = r.whatIf().layouts().stream().mapToInt(o -> o.spec().length()).max().orElse(0);
    String specColumn = "  %-" + Math.max(6, width) + "s";
    out.append(
        String.format(
            Locale.ROOT,
            specColumn + " %7s %7s %7s %7s%n",
            "layout",
            "regions",
            "rows",
            "cells",
            "recent"));
    for (AuditResult.LayoutOutcome o : r.whatIf().layouts()) {
      if (o.problem() != null) {
        out.append(
            String.format(Locale.ROOT, specColumn + " %s%n", o.spec(), "skipped: " + o.problem()));
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              specColumn + " %7d %7.2f %7.2f %7.2f%s%n",
              o.spec(),
              o.regions(),
              o.rowsMaxOverMean(),
              o.cellsMaxOverMean(),
              o.recentMaxOverMean(),
              o.name().equals(r.whatIf().recommended()) ? "  <- recommended" : ""));
    }
    out.append("\nFindings (").append(r.findings().size()).append(")\n");
    if (r.findings().isEmpty()) {
      out.append("  none: the table follows the design rules checked\n");
    }
    for (Finding f : r.findings()) {
      out.append(
          String.format(Locale.ROOT, "  %-5s %s [%s]%n", f.severity(), f.code(), f.subject()));
      out.append("        ").append(f.evidence()).append('\n');
      out.append("        -> ").append(f.advice()).append('\n');
    }
    if (reportDir != null) {
      out.append("\nReport: ")
          .append(reportDir)
          .append("/audit.html (charts), ")
          .append(reportDir)
          .append("/audit.json\n");
    }
    return out.toString();
  }

  private static String sampling(AuditResult.Sampling s) {
    return s.mode().equals("fraction")
        ? "about " + Math.round(s.fraction() * 100) + "% of rows"
        : "at most " + s.rowsPerSplit() + " rows per split";
  }
}
