package io.rekey.report;

import java.util.List;
import java.util.Locale;

/**
 * Small inline SVG charts for the self-contained HTML report: no script, no network, and the output
 * is well-formed XML so a test can parse it.
 */
final class Svg {
  static final String BAR = "#4e79a7";
  static final String HOT = "#e15759";

  private Svg() {}

  /** One labelled value for a bar chart, with an optional second value drawn over it. */
  record Bar(String label, double value, double overlay) {
    Bar(String label, double value) {
      this(label, value, -1);
    }
  }

  /** Vertical bars, labels under every {@code labelEvery}-th bar. */
  static String columns(String title, List<Bar> bars, String valueUnit, String overlayName) {
    int width = 900;
    int height = 220;
    int left = 60;
    int bottom = 40;
    int plotW = width - left - 10;
    int plotH = height - bottom - 24;
    double max = bars.stream().mapToDouble(b -> Math.max(b.value(), b.overlay())).max().orElse(0);
    StringBuilder s = open(title, width, height);
    axis(s, left, 24, plotH, max, valueUnit);
    if (!bars.isEmpty() && max > 0) {
      double slot = plotW / (double) bars.size();
      double w = Math.max(1, slot * 0.8);
      int labelEvery = Math.max(1, (int) Math.ceil(bars.size() / 24.0));
      for (int i = 0; i < bars.size(); i++) {
        Bar b = bars.get(i);
        double x = left + i * slot + (slot - w) / 2;
        rect(
            s,
            x,
            24 + plotH * (1 - b.value() / max),
            w,
            plotH * b.value() / max,
            BAR,
            b.label() + ": " + number(b.value()) + " " + valueUnit);
        if (b.overlay() >= 0) {
          rect(
              s,
              x + w / 4,
              24 + plotH * (1 - b.overlay() / max),
              w / 2,
              plotH * b.overlay() / max,
              HOT,
              b.label() + ": " + number(b.overlay()) + " " + overlayName);
        }
        if (i % labelEvery == 0) {
          // About 6 pixels per character at this size: labels never run into each other.
          int chars = Math.max(3, (int) (slot * labelEvery / 6.5));
          text(s, x + w / 2, height - bottom + 14, "middle", 10, shorten(b.label(), chars));
        }
      }
    }
    if (overlayName != null) {
      legend(s, width - 300, 12, valueUnit, overlayName);
    }
    return s.append("</svg>\n").toString();
  }

  /** Horizontal bars with their labels on the left: for named items such as qualifiers. */
  static String rows(String title, List<Bar> bars, String valueUnit) {
    int width = 900;
    int rowH = 18;
    int left = 260;
    int height = 30 + rowH * Math.max(1, bars.size());
    double max = bars.stream().mapToDouble(Bar::value).max().orElse(0);
    StringBuilder s = open(title, width, height);
    for (int i = 0; i < bars.size(); i++) {
      Bar b = bars.get(i);
      double y = 10 + i * rowH;
      double w = max == 0 ? 0 : (width - left - 110) * b.value() / max;
      text(s, left - 6, y + 12, "end", 11, shorten(b.label(), 40));
      rect(
          s,
          left,
          y + 2,
          w,
          rowH - 4,
          b.overlay() > 0 ? HOT : BAR,
          b.label() + ": " + number(b.value()) + " " + valueUnit);
      text(s, left + w + 4, y + 12, "start", 11, number(b.value()) + " " + valueUnit);
    }
    return s.append("</svg>\n").toString();
  }

  /** A heatmap: one row per key bucket, one column per time bucket, darker is more. */
  static String heatmap(
      String title, List<String> rowLabels, List<String> columnLabels, long[][] cells) {
    int left = 230;
    int top = 10;
    int cols = columnLabels.size();
    int cellW = Math.max(8, 640 / Math.max(1, cols));
    int cellH = Math.max(6, Math.min(22, 440 / Math.max(1, rowLabels.size())));
    int width = left + cols * cellW + 20;
    int height = top + rowLabels.size() * cellH + 60;
    long max = 0;
    for (long[] row : cells) {
      for (long c : row) {
        max = Math.max(max, c);
      }
    }
    StringBuilder s = open(title, width, height);
    int labelEvery = Math.max(1, (int) Math.ceil(rowLabels.size() / 24.0));
    for (int k = 0; k < rowLabels.size(); k++) {
      if (k % labelEvery == 0) {
        text(s, left - 6, top + k * cellH + cellH * 0.75, "end", 10, shorten(rowLabels.get(k), 36));
      }
      for (int t = 0; t < cols; t++) {
        long c = cells[k][t];
        // Square root so that a little data still shows next to a hot spot.
        double level = max == 0 ? 0 : Math.sqrt(c / (double) max);
        String fill = c == 0 ? "#f4f4f4" : heat(level);
        rect(
            s,
            left + t * cellW,
            top + k * cellH,
            cellW - 1,
            cellH - 1,
            fill,
            rowLabels.get(k) + " @ " + columnLabels.get(t) + ": " + number(c) + " cells");
      }
    }
    int y = top + rowLabels.size() * cellH + 14;
    for (int t = 0; t < cols; t += Math.max(1, cols / 6)) {
      text(s, left + t * cellW, y, "start", 10, columnLabels.get(t));
    }
    text(s, left, y + 18, "start", 11, "write time (cell timestamps) →");
    return s.append("</svg>\n").toString();
  }

  private static String heat(double level) {
    // From pale yellow to deep red.
    int r = (int) Math.round(255 - 30 * level);
    int g = (int) Math.round(237 - 200 * level);
    int b = (int) Math.round(160 - 140 * level);
    return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
  }

  private static StringBuilder open(String title, int width, int height) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>\n",
            width,
            height,
            width,
            height,
            Html.escape(title)));
    return s;
  }

  private static void axis(StringBuilder s, int left, int top, int plotH, double max, String unit) {
    s.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n",
            left,
            top,
            left,
            top + plotH));
    text(s, left - 4, top + 4, "end", 10, number(max));
    text(s, left - 4, top + plotH, "end", 10, "0");
    text(s, left - 4, top - 10, "end", 10, unit);
  }

  private static void legend(StringBuilder s, int x, int y, String first, String second) {
    rect(s, x, y - 8, 10, 10, BAR, first);
    text(s, x + 14, y, "start", 11, first);
    rect(s, x + 140, y - 8, 10, 10, HOT, second);
    text(s, x + 154, y, "start", 11, second);
  }

  private static void rect(
      StringBuilder s, double x, double y, double w, double h, String fill, String tip) {
    s.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>\n",
            x,
            y,
            Math.max(0, w),
            Math.max(0, h),
            fill,
            Html.escape(tip)));
  }

  private static void text(
      StringBuilder s, double x, double y, String anchor, int size, String text) {
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>\n",
            x,
            y,
            anchor,
            size,
            Html.escape(text)));
  }

  static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%,d", (long) v);
    }
    return String.format(Locale.ROOT, "%,.2f", v);
  }
}
