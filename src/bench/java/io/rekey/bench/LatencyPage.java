package io.rekey.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency benchmark's page: the figures per label (medians over rounds), and the foreground's
 * p99 second by second over the whole run as an inline SVG line, on bands that mark what the tool
 * was doing. Self-contained, like the benchmarks' page.
 */
final class LatencyPage {
  private static final String[] COLORS = {
    "#e0e0e0", "#dbe9f6", "#fde2cf", "#dcefd9", "#f6dce8", "#e8e1f3", "#fff3c4", "#d7f0ef",
    "#c9ddf0", "#f9cfb0", "#c5e6c0", "#efc3d6", "#d6cbe9", "#ffe89a", "#bfe6e3", "#f0d9c4"
  };
  private static final int WIDTH = 960;
  private static final int HEIGHT = 320;
  private static final int LEFT = 56;
  private static final int BOTTOM = 28;

  private LatencyPage() {}

  static String render(JsonNode report) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>hbase-rekey: foreground latency during its jobs</title><style>")
        .append("body{font:14px/1.4 sans-serif;margin:24px;max-width:1000px;color:#222}")
        .append("table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;")
        .append("padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child,")
        .append("th:first-child{text-align:left}</style></head><body>")
        .append("<h1>Foreground latency during the tool's jobs</h1><p>")
        .append(BenchHtml.esc(report.path("foreground").asText()))
        .append(". Throttles: ")
        .append(BenchHtml.esc(report.path("throttles").asText()))
        .append(". Medians over the rounds after the first.</p>");
    h.append("<table><tr><th>while</th><th>operations</th><th>p50 ms</th><th>p99 ms</th>")
        .append("<th>max ms</th><th>p99 / idle p99</th></tr>");
    report
        .path("medians")
        .fields()
        .forEachRemaining(
            e -> {
              JsonNode f = e.getValue();
              h.append("<tr><td>")
                  .append(BenchHtml.esc(e.getKey()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(f.path("ops").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(f.path("p50Ms").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(f.path("p99Ms").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(f.path("maxMs").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(f.path("p99OverIdle").asDouble()))
                  .append("</td></tr>");
            });
    h.append("</table>");
    jobs(h, report.path("jobMedians"));
    timeline(h, report.path("timeline"));
    h.append("</body></html>\n");
    return h.toString();
  }

  /**
   * Each job's time with its defaults and with the gentle preset side by side, and the cores the
   * machine (region server, Spark and the foreground client together) kept busy meanwhile.
   */
  private static void jobs(StringBuilder h, JsonNode jobs) {
    if (jobs.isMissingNode() || jobs.isEmpty()) {
      return;
    }
    h.append("<h2>What the throttles cost</h2><table><tr><th>job</th><th>seconds</th>")
        .append("<th>seconds with --gentle</th><th>× time</th><th>machine busy cores</th>")
        .append("<th>… with --gentle</th></tr>");
    jobs.fields()
        .forEachRemaining(
            e -> {
              if (e.getKey().endsWith(LatencyBenchmark.GENTLE)) {
                return;
              }
              JsonNode off = e.getValue();
              JsonNode on = jobs.path(e.getKey() + LatencyBenchmark.GENTLE);
              double ratio = on.path("seconds").asDouble() / off.path("seconds").asDouble();
              h.append("<tr><td>")
                  .append(BenchHtml.esc(e.getKey()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(off.path("seconds").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(on.path("seconds").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(ratio))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(off.path("machineBusyCores").asDouble()))
                  .append("</td><td>")
                  .append(BenchHtml.fmt(on.path("machineBusyCores").asDouble()))
                  .append("</td></tr>");
            });
    h.append("</table>");
  }

  /** p99 per second on a log scale, over bands coloured by what the tool was doing. */
  private static void timeline(StringBuilder h, JsonNode points) {
    if (points.isEmpty()) {
      return;
    }
    double seconds = points.get(points.size() - 1).path("second").asDouble();
    double top = 1;
    for (JsonNode p : points) {
      top = Math.max(top, p.path("p99Ms").asDouble());
    }
    double logTop = Math.log10(top * 2);
    double plotW = WIDTH - LEFT - 8;
    double plotH = HEIGHT - BOTTOM - 8;
    Map<String, String> colors = new LinkedHashMap<>();
    h.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " role=\"img\" aria-label=\"foreground p99 latency per second\">",
            WIDTH,
            HEIGHT));
    for (JsonNode p : points) {
      String label = p.path("label").asText();
      String color =
          colors.computeIfAbsent(
              label,
              k -> k.startsWith("setup") ? "#ffffff" : COLORS[colors.size() % COLORS.length]);
      double x = LEFT + plotW * (p.path("second").asDouble() - 1) / seconds;
      h.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"8\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s"
                  + "</title></rect>",
              x,
              plotW / seconds + 0.5,
              plotH,
              color,
              BenchHtml.esc(label)));
    }
    List<String> xy = new ArrayList<>();
    for (JsonNode p : points) {
      double ms = Math.max(1, p.path("p99Ms").asDouble());
      double x = LEFT + plotW * p.path("second").asDouble() / seconds;
      double y = 8 + plotH * (1 - Math.log10(ms) / logTop);
      xy.add(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
    }
    h.append("<polyline fill=\"none\" stroke=\"#c62828\" stroke-width=\"1.2\" points=\"")
        .append(String.join(" ", xy))
        .append("\"/>");
    for (long ms = 1; ms <= top * 2; ms *= 10) {
      double y = 8 + plotH * (1 - Math.log10(ms) / logTop);
      h.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#bbb\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s ms</text>",
              LEFT,
              y,
              WIDTH - 8,
              y,
              LEFT - 4,
              y + 4,
              Long.toString(ms)));
    }
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\">seconds since the start: %.0f in all;"
                + " red: the foreground's p99 each second</text></svg>",
            LEFT,
            HEIGHT - 8,
            seconds));
    h.append("<p>");
    colors.forEach(
        (label, color) ->
            h.append("<span style=\"background:")
                .append(color)
                .append(";border:1px solid #ccc;padding:1px 6px;margin-right:6px\">")
                .append(BenchHtml.esc(label))
                .append("</span> "));
    h.append("</p>");
  }
}
