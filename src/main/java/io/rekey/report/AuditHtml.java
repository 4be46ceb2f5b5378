package io.rekey.report;

import io.rekey.audit.AuditResult;
import io.rekey.common.Finding;
import io.rekey.common.Sizes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The audit as one self-contained HTML file: inline CSS and SVG charts, no script, nothing fetched,
 * so it opens from disk, from an e-mail or from a CI artifact. Findings come first, then the charts
 * a person reads at a glance: the write-time heatmap, regions, key prefixes, distributions,
 * qualifiers and the what-if comparison. The markup is well-formed XML.
 *
 * <p>One section per method, in the order a reader sees them; the sections on the table's shape
 * (key prefixes, distributions, families and qualifiers, the extremes) are {@link
 * AuditShapeHtml}'s.
 */
public final class AuditHtml {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final String STYLE =
      "body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;"
          + "color:#222;max-width:1000px}h1{font-size:22px}h2{font-size:17px;margin-top:32px;"
          + "border-bottom:1px solid #ddd;padding-bottom:4px}table{border-collapse:collapse;"
          + "margin:8px 0;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;"
          + "text-align:left;vertical-align:top}th{background:#f4f4f4}.sev{font-weight:bold;"
          + "padding:1px 6px;border-radius:3px;color:#fff}.ERROR{background:#c0392b}"
          + ".WARN{background:#e67e22}.INFO{background:#7f8c8d}.cards{display:flex;"
          + "flex-wrap:wrap;gap:10px}.card{border:1px solid #ddd;border-radius:6px;"
          + "padding:8px 12px;min-width:120px}.card b{display:block;font-size:18px}"
          + ".note{color:#666;font-size:12px}.rec{background:#eaf5ea}svg.chart{display:block;"
          + "margin:6px 0 14px 0}text{fill:#333}";

  private AuditHtml() {}

  public static String render(AuditResult r) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>")
        .append("<meta charset=\"utf-8\"/>")
        .append("<title>Audit of ")
        .append(Html.escape(r.table()))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head>\n<body>\n");
    h.append("<h1>Audit of ").append(Html.escape(r.table())).append("</h1>\n");
    h.append("<p class=\"note\">")
        .append(
            Html.escape(
                "read from a "
                    + r.readFrom()
                    + (r.sampling().mode().equals("all")
                        ? ""
                        : " (sampled: " + r.sampling().mode() + ")")
                    + " at "
                    + TIME.format(Instant.ofEpochMilli(r.auditedAtMillis()))
                    + " UTC in "
                    + r.seconds()
                    + " s; source key: "
                    + (r.sourceKey() == null ? "not given" : r.sourceKey())
                    + "; audit.json schema "
                    + r.schemaVersion()))
        .append("</p>\n");
    findings(h, r);
    totals(h, r);
    heatmap(h, r);
    regions(h, r);
    whatIf(h, r);
    AuditShapeHtml.prefixes(h, r);
    AuditShapeHtml.distributions(h, r);
    AuditShapeHtml.qualifiers(h, r);
    AuditShapeHtml.extremes(h, r);
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  private static void findings(StringBuilder h, AuditResult r) {
    h.append("<h2 id=\"findings\">Findings (").append(r.findings().size()).append(")</h2>\n");
    if (r.findings().isEmpty()) {
      h.append("<p>None: the table follows the design rules checked.</p>\n");
      return;
    }
    h.append(
        "<table>\n<tr><th>severity</th><th>finding</th><th>evidence</th><th>what to do</th></tr>\n");
    for (Finding f : r.findings()) {
      h.append("<tr><td><span class=\"sev ")
          .append(f.severity())
          .append("\">")
          .append(f.severity())
          .append("</span></td><td><b>")
          .append(Html.escape(f.code()))
          .append("</b><br/>")
          .append(Html.escape(f.subject()))
          .append("</td><td>")
          .append(Html.escape(f.evidence()))
          .append("</td><td>")
          .append(Html.escape(f.advice()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void totals(StringBuilder h, AuditResult r) {
    var t = r.totals();
    h.append("<h2>Totals</h2>\n<div class=\"cards\">");
    card(h, "rows", Svg.number(t.rows()));
    card(h, "cells", Svg.number(t.cells()));
    card(h, "bytes", Sizes.human(t.bytes()));
    card(h, "delete markers", Svg.number(t.deleteMarkers()));
    card(h, "key bytes stored", Sizes.human(t.keyBytesStored()));
    card(h, "regions", Svg.number(r.skew().regionCount()));
    if (t.cells() > 0) {
      card(h, "oldest cell", TIME.format(Instant.ofEpochMilli(t.oldestTs())));
      card(h, "newest cell", TIME.format(Instant.ofEpochMilli(t.newestTs())));
    }
    card(h, "keys follow time", r.monotonic().monotonic() ? "YES" : "no");
    h.append("</div>\n");
  }

  private static void card(StringBuilder h, String label, String value) {
    h.append("<div class=\"card\"><b>")
        .append(Html.escape(value))
        .append("</b>")
        .append(Html.escape(label))
        .append("</div>");
  }

  private static void heatmap(StringBuilder h, AuditResult r) {
    var m = r.heatmap();
    h.append("<h2 id=\"heatmap\">Where data was written, over time</h2>\n");
    if (m.keyLabels().isEmpty()) {
      h.append("<p>No cells.</p>\n");
      return;
    }
    h.append("<p class=\"note\">")
        .append(
            Html.escape(
                (m.keyAxis().equals("regions")
                        ? "One row per region (or group of regions), in key order"
                        : "One row per equal-count key range of the cell sample, in key order")
                    + "; one column per slice of write time. A time-first key shows as a diagonal"
                    + " or a hot last band; a salted key as an even spread."))
        .append("</p>\n");
    List<String> columns = new ArrayList<>();
    for (long start : m.timeStarts()) {
      columns.add(TIME.format(Instant.ofEpochMilli(start)));
    }
    h.append(Svg.heatmap("cells by key bucket and write time", m.keyLabels(), columns, m.cells()));
  }

  private static void regions(StringBuilder h, AuditResult r) {
    var s = r.skew();
    h.append("<h2 id=\"regions\">Regions</h2>\n");
    h.append("<p>")
        .append(
            Html.escape(
                String.format(
                    Locale.ROOT,
                    "%d region(s). Stored cells max/mean %.2f, Gini %.2f; rows max/mean %.2f;"
                        + " bytes max/mean %.2f. Recent writes (the newest 10%% of cells, from %s)"
                        + " max/mean %.2f.",
                    s.regionCount(),
                    s.cellsMaxOverMean(),
                    s.cellsGini(),
                    s.rowsMaxOverMean(),
                    s.bytesMaxOverMean(),
                    r.totals().cells() == 0
                        ? "-"
                        : TIME.format(Instant.ofEpochMilli(s.recentCutoffTs())),
                    s.recentMaxOverMean())))
        .append("</p>\n");
    List<Svg.Bar> bars = new ArrayList<>();
    for (AuditResult.RegionStats region : s.regions()) {
      bars.add(new Svg.Bar("#" + region.index(), region.cells(), region.recentCells()));
    }
    h.append(Svg.columns("cells per region", bars, "cells", "recent cells"));
    if (!s.keyRanges().isEmpty()) {
      h.append("<p class=\"note\">")
          .append(
              Html.escape(
                  String.format(
                      Locale.ROOT,
                      "The same over %d equal-count key ranges (a share of the cell sample each):"
                          + " where recent writes land whatever the current regions. Max/mean %.2f.",
                      s.keyRanges().size(),
                      s.keyRangeRecentMaxOverMean())))
          .append("</p>\n");
      List<Svg.Bar> ranges = new ArrayList<>();
      for (AuditResult.KeyRangeStats k : s.keyRanges()) {
        ranges.add(new Svg.Bar(k.startKey(), k.cellShare() * 100, k.recentShare() * 100));
      }
      h.append(
          Svg.columns(
              "share of cells and recent writes per key range",
              ranges,
              "% of cells",
              "% of recent"));
    }
  }

  private static void whatIf(StringBuilder h, AuditResult r) {
    var w = r.whatIf();
    h.append("<h2 id=\"what-if\">What-if layouts</h2>\n<p>")
        .append(
            Html.escape(
                "Each layout is simulated on the samples in a table pre-split for it ("
                    + w.regions()
                    + " regions unless salted). Max/mean: 1.00 is perfectly even; n means one of"
                    + " n regions takes everything. Recommended: "
                    + (w.recommended() == null ? "none" : w.recommended())
                    + " — "
                    + w.why()))
        .append("</p>\n<table>\n<tr><th>layout</th><th>target key</th><th>regions</th>")
        .append("<th>rows max/mean</th><th>cells max/mean</th><th>recent writes max/mean</th>")
        .append("<th>mean key bytes</th></tr>\n");
    List<Svg.Bar> bars = new ArrayList<>();
    for (AuditResult.LayoutOutcome o : w.layouts()) {
      boolean recommended = o.name().equals(w.recommended());
      h.append(recommended ? "<tr class=\"rec\">" : "<tr>");
      cell(h, o.name() + (recommended ? " (recommended)" : ""));
      cell(h, o.spec());
      if (o.problem() != null) {
        h.append("<td colspan=\"5\">")
            .append(Html.escape("skipped: " + o.problem()))
            .append("</td>");
      } else {
        cell(h, Integer.toString(o.regions()));
        cell(h, fmt(o.rowsMaxOverMean()));
        cell(h, fmt(o.cellsMaxOverMean()));
        cell(h, fmt(o.recentMaxOverMean()));
        cell(h, fmt(o.avgKeyBytes()));
        bars.add(new Svg.Bar(o.spec(), o.recentMaxOverMean(), recommended ? 1 : -1));
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
    h.append(Svg.rows("recent writes max/mean per layout (lower is better)", bars, "× mean"));
  }

  private static void cell(StringBuilder h, String text) {
    h.append("<td>").append(Html.escape(text)).append("</td>");
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
