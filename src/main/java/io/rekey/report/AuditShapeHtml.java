package io.rekey.report;

import io.rekey.audit.AuditResult;
import io.rekey.audit.Samples;
import io.rekey.common.Sizes;
import io.rekey.sketch.Distribution;
import io.rekey.sketch.Weighted;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The audit page's sections on the table's shape, as {@link AuditHtml} places them: key prefixes,
 * distributions with their histograms, families and qualifiers, and the widest and largest rows and
 * cells.
 */
final class AuditShapeHtml {
  private AuditShapeHtml() {}

  static void prefixes(StringBuilder h, AuditResult r) {
    var p = r.prefixes();
    h.append("<h2 id=\"prefixes\">Key prefixes</h2>\n");
    List<Svg.Bar> first = new ArrayList<>();
    for (Weighted w : p.firstByteCells()) {
      first.add(new Svg.Bar(w.item(), w.weight()));
    }
    h.append("<p class=\"note\">Cells by the key's first byte.</p>\n");
    h.append(Svg.columns("cells by first key byte", first, "cells", null));
    h.append("<p class=\"note\">The heaviest two-byte prefixes.</p>\n");
    h.append(Svg.rows("cells by first two key bytes", weighted(p.topTwoByteCells()), "cells"));
    if (p.firstField() != null) {
      var f = p.firstField();
      h.append("<p class=\"note\">")
          .append(
              Html.escape(
                  "The heaviest values of the first key field '"
                      + f.name()
                      + "' (about "
                      + f.distinctValues()
                      + " distinct; weights estimated from "
                      + f.sampleRows()
                      + " sampled rows; "
                      + f.mismatches()
                      + " keys could not be read up to it; "
                      + f.sampleMismatches()
                      + " of "
                      + f.sampleRows()
                      + " sampled keys do not match --source-key as a whole"
                      + (f.mismatchExamples().isEmpty()
                          ? ""
                          : ", e.g. " + f.mismatchExamples().get(0))
                      + ")."))
          .append("</p>\n");
      h.append(Svg.rows("cells by first key field", weighted(f.topByCells()), "cells"));
    }
  }

  private static List<Svg.Bar> weighted(List<Weighted> items) {
    List<Svg.Bar> bars = new ArrayList<>();
    for (Weighted w : items) {
      bars.add(new Svg.Bar(w.item(), w.weight()));
    }
    return bars;
  }

  static void distributions(StringBuilder h, AuditResult r) {
    var d = r.distributions();
    h.append("<h2 id=\"distributions\">Distributions</h2>\n");
    List<List<String>> rows = new ArrayList<>();
    distribution(rows, "key length (bytes)", d.keyLength());
    distribution(rows, "cells per row", d.cellsPerRow());
    distribution(rows, "columns per row", d.columnsPerRow());
    distribution(rows, "bytes per row", d.bytesPerRow());
    distribution(rows, "value size (bytes)", d.valueSize());
    distribution(rows, "versions per column", d.versionsPerColumn());
    h.append(Html.table(List.of("measure", "n", "min", "p50", "p90", "p99", "max"), rows));
    h.append(histogram("key length", d.keyLength(), "rows"));
    h.append(histogram("cells per row (row width)", d.cellsPerRow(), "rows"));
    h.append(histogram("bytes per row", d.bytesPerRow(), "rows"));
    h.append(histogram("value size", d.valueSize(), "cells"));
  }

  private static void distribution(List<List<String>> rows, String name, Distribution d) {
    rows.add(
        List.of(
            name,
            Svg.number(d.n()),
            Svg.number(d.min()),
            Svg.number(d.p50()),
            Svg.number(d.p90()),
            Svg.number(d.p99()),
            Svg.number(d.max())));
  }

  private static String histogram(String title, Distribution d, String unit) {
    List<Svg.Bar> bars = new ArrayList<>();
    for (Distribution.Bin b : d.histogram()) {
      bars.add(new Svg.Bar(Svg.number(Math.floor(b.from())), b.count()));
    }
    return "<p class=\"note\">"
        + Html.escape(title)
        + "</p>\n"
        + Svg.columns(title, bars, unit, null);
  }

  static void qualifiers(StringBuilder h, AuditResult r) {
    h.append("<h2 id=\"families\">Families and qualifiers</h2>\n");
    List<List<String>> rows = new ArrayList<>();
    for (AuditResult.FamilyStats f : r.families()) {
      rows.add(
          List.of(
              f.name(),
              Svg.number(f.cells()),
              Sizes.human(f.bytes()),
              Svg.number(f.deleteMarkers()),
              (f.qualifiersExact() ? "" : "~") + Svg.number(f.distinctQualifiers()),
              Svg.number(f.maxVersionsStored()),
              f.settingsVersions() == 0 ? "-" : Integer.toString(f.settingsVersions())));
    }
    h.append(
        Html.table(
            List.of(
                "family",
                "cells",
                "bytes",
                "delete markers",
                "distinct qualifiers",
                "max versions stored",
                "VERSIONS"),
            rows));
    for (AuditResult.FamilyStats f : r.families()) {
      if (!f.topQualifiersByCells().isEmpty()) {
        h.append(
            Svg.rows(
                "top qualifiers of " + f.name() + " by cells",
                weighted(f.topQualifiersByCells()),
                "cells in " + f.name()));
        h.append(
            Svg.rows(
                "top qualifiers of " + f.name() + " by bytes",
                weighted(f.topQualifiersByBytes()),
                "bytes in " + f.name()));
      }
    }
  }

  static void extremes(StringBuilder h, AuditResult r) {
    var e = r.extremes();
    h.append("<h2 id=\"extremes\">Widest and largest rows, largest cells</h2>\n<p>")
        .append(
            Html.escape(
                String.format(
                    Locale.ROOT,
                    "%d rows over %,d columns; %d cells over %s; %d keys over %d bytes.",
                    e.wideRows(),
                    e.wideRowColumns(),
                    e.hugeCells(),
                    Sizes.human(e.hugeCellBytes()),
                    e.longKeyRows(),
                    e.longKeyBytes())))
        .append("</p>\n");
    h.append(
        Html.table(List.of("widest rows", "columns", "cells", "bytes"), rowSizes(e.widestRows())));
    h.append(
        Html.table(
            List.of("largest rows", "columns", "cells", "bytes"), rowSizes(e.largestRows())));
    List<List<String>> cells = new ArrayList<>();
    for (Samples.BigCell c : e.largestCells()) {
      cells.add(List.of(c.row(), c.column(), Sizes.human(c.valueBytes()), Long.toString(c.ts())));
    }
    h.append(Html.table(List.of("row", "column", "value size", "timestamp"), cells));
  }

  private static List<List<String>> rowSizes(List<Samples.RowSize> sizes) {
    List<List<String>> rows = new ArrayList<>();
    for (Samples.RowSize s : sizes) {
      rows.add(
          List.of(s.key(), Svg.number(s.columns()), Svg.number(s.cells()), Sizes.human(s.bytes())));
    }
    return rows;
  }
}
