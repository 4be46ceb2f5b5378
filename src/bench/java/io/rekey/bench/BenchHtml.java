package io.rekey.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmarks' page: the targets first, then charts drawn as inline SVG (time per cell against
 * table size, every round's ratio against its target, heap against size, stage times) and the
 * tables behind them. Self-contained: no script, no font or style sheet fetched.
 */
final class BenchHtml {
  private static final String[] COLORS = {
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#76b7b2", "#b07aa1", "#9c755f"
  };
  private static final List<String> SCALE_METHODS =
      List.of("rekey", "indexBuild", "indexPutBased", "audit", "floor");

  private final JsonNode all;
  private final StringBuilder h = new StringBuilder();

  BenchHtml(JsonNode all) {
    this.all = all;
  }

  String render() {
    h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"rekey-report\" content=\"bench\">")
        .append("<title>hbase-rekey benchmarks</title><style>")
        .append("body{font:14px/1.4 sans-serif;margin:24px;max-width:1000px;color:#222}")
        .append("table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;")
        .append("padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child,")
        .append("th:first-child{text-align:left}.met{color:#2a7d2a;font-weight:bold}")
        .append(".missed{color:#c62828;font-weight:bold}code{font-size:12px}")
        .append("svg{display:block;margin:8px 0}</style></head><body>");
    h.append("<h1>hbase-rekey benchmarks</h1><p>")
        .append(esc(all.path("generated").asText()))
        .append(" on ")
        .append(esc(all.path("host").toString()))
        .append(". Every figure is a median over measured rounds after a warm-up, methods in")
        .append(" rotated order, all in one run; ratios are the median of per-round ratios.")
        .append(" The JSON beside this page (<code>bench-all.json</code>) holds every round.</p>");
    targets();
    ratios();
    scale();
    stages();
    sparkStages();
    profile();
    methods();
    wide();
    h.append("</body></html>\n");
    return h.toString();
  }

  private void targets() {
    h.append("<section id=\"targets\"><h2>Targets</h2><table><tr><th>target</th><th>value</th>")
        .append("<th>rounds' spread</th><th>met</th><th>missed by</th><th>JSON path</th></tr>");
    for (JsonNode t : all.path("targets")) {
      boolean met = t.path("met").asBoolean();
      h.append("<tr><td>")
          .append(esc(t.path("target").asText()))
          .append("</td><td>")
          .append(esc(t.path("value").asText()))
          .append("</td><td>")
          .append(esc(t.path("spread").asText()))
          .append("</td><td class=\"")
          .append(met ? "met\">met" : "missed\">missed")
          .append("</td><td>")
          .append(t.path("missedBy").isNull() ? "" : esc(t.path("missedBy").asText()))
          .append("</td><td><code>")
          .append(esc(t.path("jsonPath").asText()))
          .append("</code></td></tr>");
    }
    h.append("</table></section>");
  }

  /** Every round's ratio as a dot, the median as a bar, the target as a dashed line. */
  private void ratios() {
    List<String> names = new ArrayList<>();
    List<JsonNode> ratios = new ArrayList<>();
    List<Double> bounds = new ArrayList<>();
    add(names, ratios, bounds, "rekey vs Put copy (≥ 3)", "rekey.rekeyVsPutBased", 3);
    add(names, ratios, bounds, "rekey vs hbase-spark (≥ 2)", "rekey.rekeyVsHbaseSpark", 2);
    add(names, ratios, bounds, "rekey / floor (≤ 3)", "rekey.rekeyOverFloor", 3);
    add(names, ratios, bounds, "index build vs Put (≥ 3)", "index.buildVsPutBased", 3);
    add(names, ratios, bounds, "index build / floor", "index.buildOverFloor", -1);
    add(names, ratios, bounds, "audit / floor (≤ 1.3)", "audit.auditOverFloor", 1.3);
    JsonNode sizes = all.path("scale").path("sizes");
    for (int i = 0; i < sizes.size(); i++) {
      String cells = BenchReport.millions(sizes.get(i).path("cells").asLong());
      String at = "scale.sizes[" + i + "].";
      add(names, ratios, bounds, "index vs Put, " + cells, at + "indexBuildVsPutBased", 3);
      add(names, ratios, bounds, "rekey / floor, " + cells, at + "rekeyOverFloor", 3);
      add(names, ratios, bounds, "audit / floor, " + cells, at + "auditOverFloor", 1.3);
    }
    double max = 1;
    for (int i = 0; i < ratios.size(); i++) {
      max = Math.max(max, Math.max(ratios.get(i).path("max").asDouble(), bounds.get(i)));
    }
    max = Math.ceil(max);
    int left = 220;
    int width = 940;
    int rowH = 26;
    int height = 40 + rowH * names.size();
    double plotW = width - left - 20;
    h.append("<section id=\"ratios\"><h2>Ratios and their spread over rounds</h2>");
    svgOpen("ratios over rounds", width, height);
    for (int tick = 0; tick <= max; tick++) {
      double x = left + plotW * tick / max;
      line(x, 10, x, height - 24, "#ddd", false);
      text(x, height - 8, tick + "×", "middle", 11);
    }
    for (int i = 0; i < names.size(); i++) {
      double y = 22 + i * rowH;
      text(left - 8, y + 4, names.get(i), "end", 12);
      JsonNode r = ratios.get(i);
      double median = r.path("medianOfRounds").asDouble();
      rect(left, y - 5, plotW * median / max, 10, "#c9d7e8", "median " + fmt(median) + "×");
      for (JsonNode each : r.path("eachRound")) {
        circle(left + plotW * each.asDouble() / max, y, 3.5, COLORS[0], fmt(each.asDouble()) + "×");
      }
      if (bounds.get(i) > 0) {
        double x = left + plotW * bounds.get(i) / max;
        line(x, y - 10, x, y + 10, COLORS[1], true);
      }
    }
    h.append("</svg><p>Dots: each measured round. Bar: the median. Red dashes: the target.</p>");
    h.append("</section>");
  }

  private void add(
      List<String> names,
      List<JsonNode> ratios,
      List<Double> bounds,
      String name,
      String path,
      double bound) {
    JsonNode r = BenchReport.at(all, path);
    if (!r.isMissingNode()) {
      names.add(name);
      ratios.add(r);
      bounds.add(bound);
    }
  }

  /** Time per cell and live heap against table size, one line per method. */
  private void scale() {
    JsonNode sizes = all.path("scale").path("sizes");
    if (sizes.size() == 0) {
      return;
    }
    h.append("<section id=\"scale\"><h2>Scale: time per cell and heap against table size</h2>");
    lines("time per cell (ns) against table size", sizes, "nanosPerCell", "ns/cell");
    lines("peak live heap (MiB) against table size", sizes, "peakLiveHeapMiB", "MiB");
    h.append("<table><tr><th>table</th><th>cells</th>");
    for (String m : SCALE_METHODS) {
      h.append("<th>").append(m).append(" s (ns/cell, live MiB)</th>");
    }
    h.append("</tr>");
    for (JsonNode s : sizes) {
      h.append("<tr><td>").append(esc(s.path("table").asText())).append("</td><td>");
      h.append(String.format(Locale.ROOT, "%,d", s.path("cells").asLong())).append("</td>");
      for (String m : SCALE_METHODS) {
        JsonNode n = s.path(m);
        h.append("<td>")
            .append(fmt(n.path("medianSeconds").asDouble()))
            .append(" (")
            .append(fmt(n.path("nanosPerCell").asDouble()))
            .append(", ")
            .append(n.path("peakLiveHeapMiB").asText())
            .append(")</td>");
      }
      h.append("</tr>");
    }
    h.append("</table><p>Flatness (time per cell over the smallest size's): <code>")
        .append(esc(all.path("scale").path("flatness").toString()))
        .append("</code></p></section>");
  }

  private void lines(String title, JsonNode sizes, String field, String unit) {
    int width = 940;
    int height = 300;
    int left = 70;
    int right = 150;
    int top = 28;
    int bottom = 40;
    double plotW = width - left - right;
    double plotH = height - top - bottom;
    double maxX = 0;
    double maxY = 0;
    for (JsonNode s : sizes) {
      maxX = Math.max(maxX, s.path("cells").asDouble() / 1e6);
      for (String m : SCALE_METHODS) {
        maxY = Math.max(maxY, s.path(m).path(field).asDouble());
      }
    }
    maxX = Math.ceil(maxX / 5) * 5;
    maxY = niceCeil(maxY);
    svgOpen(title, width, height);
    for (int i = 0; i <= 4; i++) {
      double y = top + plotH * (1 - i / 4.0);
      line(left, y, left + plotW, y, "#ddd", false);
      text(left - 6, y + 4, fmt(maxY * i / 4), "end", 11);
    }
    for (int x = 0; x <= maxX; x += 5) {
      double px = left + plotW * x / maxX;
      text(px, height - bottom + 16, x + "M", "middle", 11);
    }
    text(left + plotW / 2, height - 6, "cells in the table (millions)", "middle", 11);
    text(left, top - 8, unit, "start", 11);
    int k = 0;
    for (String m : SCALE_METHODS) {
      String color = COLORS[k % COLORS.length];
      StringBuilder points = new StringBuilder();
      for (JsonNode s : sizes) {
        double x = left + plotW * s.path("cells").asDouble() / 1e6 / maxX;
        double y = top + plotH * (1 - s.path(m).path(field).asDouble() / maxY);
        points.append(fmt(x)).append(',').append(fmt(y)).append(' ');
        circle(x, y, 3.5, color, m + ": " + s.path(m).path(field).asText() + " " + unit);
      }
      h.append("<polyline fill=\"none\" stroke=\"")
          .append(color)
          .append("\" stroke-width=\"2\" points=\"")
          .append(points.toString().trim())
          .append("\"/>");
      rect(width - right + 12, top + k * 18, 12, 12, color, m);
      text(width - right + 30, top + k * 18 + 10, m, "start", 12);
      k++;
    }
    h.append("</svg>");
  }

  /** Median stage times of rekey and the index build, as stacked bars. */
  private void stages() {
    h.append("<section id=\"stages\"><h2>Where the time goes: stages (median seconds)</h2>");
    List<String> names = new ArrayList<>();
    List<JsonNode> stages = new ArrayList<>();
    List<Double> floors = new ArrayList<>();
    for (String[] s :
        new String[][] {
          {"rekey", "rekey.rekey", "rekey.floor"}, {"index build", "index.build", "index.floor"}
        }) {
      JsonNode n = BenchReport.at(all, s[1]).path("medianStageSeconds");
      if (!n.isMissingNode()) {
        names.add(s[0]);
        stages.add(n);
        floors.add(BenchReport.at(all, s[2]).path("medianSeconds").asDouble());
      }
    }
    int width = 940;
    int left = 110;
    int rowH = 60;
    int height = 30 + rowH * names.size() + 20 * 4;
    double max = 0;
    for (JsonNode n : stages) {
      double sum = 0;
      for (JsonNode v : n) {
        sum += v.asDouble();
      }
      max = Math.max(max, sum);
    }
    max = niceCeil(max);
    double plotW = width - left - 20;
    svgOpen("stage times", width, height);
    List<String> legend = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      double y = 14 + i * rowH;
      text(left - 8, y + 14, names.get(i), "end", 12);
      double x = left;
      var it = stages.get(i).fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        int c = legend.indexOf(e.getKey());
        if (c < 0) {
          legend.add(e.getKey());
          c = legend.size() - 1;
        }
        double w = plotW * e.getValue().asDouble() / max;
        rect(x, y, w, 20, COLORS[c % COLORS.length], e.getKey() + ": " + e.getValue() + " s");
        x += w;
      }
      double fw = plotW * floors.get(i) / max;
      rect(left, y + 26, fw, 10, "#999", "read floor: " + fmt(floors.get(i)) + " s");
      text(left + fw + 6, y + 35, "read floor " + fmt(floors.get(i)) + " s", "start", 11);
    }
    for (int c = 0; c < legend.size(); c++) {
      double y = 20 + rowH * names.size() + c * 20;
      rect(left, y - 10, 12, 12, COLORS[c % COLORS.length], legend.get(c));
      text(left + 18, y, legend.get(c), "start", 12);
    }
    h.append("</svg><p>Axis: 0 to ").append(fmt(max)).append(" s.</p></section>");
  }

  /** The executor samples of each job by step, from Java Flight Recorder (ProfileBenchmark). */
  private void profile() {
    JsonNode p = all.path("profile");
    if (p.isMissingNode()) {
      return;
    }
    h.append("<section id=\"profile\"><h2>Profile: where each job's executor time goes</h2><p>")
        .append(esc(p.path("how").asText()))
        .append("</p>");
    List<String> jobs = List.of("rekey", "indexBuild", "audit");
    List<String> legend = new ArrayList<>();
    for (String job : jobs) {
      p.path(job)
          .path("percentOfExecutorSamples")
          .fieldNames()
          .forEachRemaining(
              step -> {
                if (!legend.contains(step)) {
                  legend.add(step);
                }
              });
    }
    int width = 940;
    int left = 110;
    int rowH = 34;
    int height = 20 + rowH * jobs.size() + 18 * ((legend.size() + 1) / 2) + 10;
    double plotW = width - left - 20;
    svgOpen("profile shares", width, height);
    for (int i = 0; i < jobs.size(); i++) {
      double y = 10 + i * rowH;
      text(left - 8, y + 15, jobs.get(i), "end", 12);
      double x = left;
      var it = p.path(jobs.get(i)).path("percentOfExecutorSamples").fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        double w = plotW * e.getValue().asDouble() / 100;
        rect(
            x, y, w, 22, color(legend.indexOf(e.getKey())), e.getKey() + ": " + e.getValue() + "%");
        if (w > 34) {
          text(x + w / 2, y + 15, fmt(e.getValue().asDouble()) + "%", "middle", 11);
        }
        x += w;
      }
    }
    for (int c = 0; c < legend.size(); c++) {
      double x = left + (c % 2) * plotW / 2;
      double y = 20 + rowH * jobs.size() + (c / 2) * 18;
      rect(x, y - 10, 12, 12, color(c), legend.get(c));
      text(x + 18, y, legend.get(c), "start", 12);
    }
    h.append("</svg></section>");
  }

  /** A color per series; past the palette, shades of grey that still tell neighbours apart. */
  private static String color(int i) {
    if (i < COLORS.length) {
      return COLORS[i];
    }
    int grey = 0x99 + (i - COLORS.length) * 0x11 % 0x55;
    return String.format(Locale.ROOT, "#%02x%02x%02x", grey, grey, grey);
  }

  /** Each benchmark's methods: their names on the page and their paths in the JSON. */
  private static final String[][] METHODS = {
    {"rekey", "rekey.rekey"},
    {"Put copy", "rekey.putBased"},
    {"hbase-spark", "rekey.hbaseSpark"},
    {"read floor (rekey)", "rekey.floor"},
    {"index build", "index.build"},
    {"Put index builder", "index.putBased"},
    {"read floor (index)", "index.floor"},
    {"audit", "audit.audit"},
    {"read floor (audit)", "audit.floor"}
  };

  /**
   * Each method's last round as Spark and the machine saw it ({@link SparkStages}, {@link CpuUse}):
   * the cores it kept busy, the time outside any Spark job, and per stage its wall time, its tasks'
   * run and CPU time and the longest task. A method that keeps both cores busy is bound by its CPU
   * work; a stage whose tasks' CPU time is far below their run time waited.
   */
  private void sparkStages() {
    h.append("<section id=\"spark\"><h2>Where the time goes: Spark stages and busy cores")
        .append(" (last round)</h2><table><tr><th>method</th><th>s</th>")
        .append(
            "<th>busy cores: machine (of them stolen) / bench JVM</th><th>outside Spark jobs s</th>")
        .append("<th>stage</th><th>tasks</th><th>stage s</th><th>task s (CPU s)</th>")
        .append("<th>longest task s</th><th>shuffle write / read MiB</th></tr>");
    for (String[] m : METHODS) {
      JsonNode last = BenchReport.at(all, m[1]).path("lastRound");
      JsonNode spark = last.path("spark");
      if (spark.isMissingNode()) {
        continue;
      }
      JsonNode cpu = last.path("cpu");
      JsonNode stageList = spark.path("stages");
      int rows = Math.max(1, stageList.size());
      // The method's own cells span its stages' rows.
      h.append("<tr>");
      for (String cell :
          List.of(
              esc(m[0]),
              fmt(last.path("seconds").asDouble()),
              cpu.path("machineBusyCores").asText("?")
                  + (cpu.has("machineStolenCores")
                      ? " (" + cpu.path("machineStolenCores").asText() + ")"
                      : "")
                  + " / "
                  + cpu.path("benchJvmBusyCores").asText("?"),
              spark.path("outsideSparkJobsSeconds").asText())) {
        h.append("<td rowspan=\"").append(rows).append("\">").append(cell).append("</td>");
      }
      if (stageList.isEmpty()) {
        h.append("<td colspan=\"6\">no Spark stage</td></tr>");
        continue;
      }
      boolean first = true;
      for (JsonNode st : stageList) {
        if (!first) {
          h.append("<tr>");
        }
        first = false;
        h.append("<td style=\"text-align:left\"><code>")
            .append(esc(st.path("stage").asText()))
            .append("</code></td>");
        for (String cell :
            List.of(
                st.path("tasks").asText(),
                st.path("seconds").asText(),
                st.path("taskSeconds").asText() + " (" + st.path("taskCpuSeconds").asText() + ")",
                st.path("longestTaskSeconds").asText(),
                st.path("shuffleWriteMiB").asText() + " / " + st.path("shuffleReadMiB").asText())) {
          h.append("<td>").append(cell).append("</td>");
        }
        h.append("</tr>");
      }
    }
    h.append("</table></section>");
  }

  /**
   * Each benchmark's methods: median seconds, cells, heap and the settings that make them equal.
   */
  private void methods() {
    h.append("<section id=\"methods\"><h2>Methods and their settings</h2><table><tr>")
        .append("<th>method</th><th>cells</th><th>median s</th><th>each round s</th>")
        .append("<th>peak live MiB</th><th>settings</th></tr>");
    for (String[] m : METHODS) {
      JsonNode n = BenchReport.at(all, m[1]);
      if (n.isMissingNode()) {
        continue;
      }
      h.append("<tr><td>")
          .append(m[0])
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%,d", n.path("cells").asLong()))
          .append("</td><td>")
          .append(fmt(n.path("medianSeconds").asDouble()))
          .append("</td><td>")
          .append(esc(n.path("secondsOfEachRound").toString()))
          .append("</td><td>")
          .append(n.path("peakLiveHeapMiB").asText())
          .append("</td><td style=\"text-align:left\"><code>")
          .append(esc(n.path("lastRound").path("settings").toString()))
          .append("</code></td></tr>");
    }
    h.append("</table></section>");
  }

  private void wide() {
    JsonNode w = all.path("wide");
    if (w.isMissingNode()) {
      return;
    }
    h.append("<section id=\"wide\"><h2>Wide and big, at the default heap (")
        .append(w.path("maxHeapMiB").asText())
        .append(" MiB)</h2><table><tr><th>table</th><th>cells</th><th>job</th><th>seconds</th>")
        .append("<th>peak live heap MiB</th><th>peak heap MiB</th></tr>");
    for (String table : List.of(WideBenchmark.WIDE, WideBenchmark.BIG)) {
      JsonNode t = w.path(table);
      for (String job : List.of("rekey", "audit", "indexBuild")) {
        JsonNode j = t.path(job);
        h.append("<tr><td>")
            .append(table)
            .append("</td><td>")
            .append(t.path("cells").asText())
            .append("</td><td>")
            .append(job)
            .append("</td><td>")
            .append(fmt(j.path("medianSeconds").asDouble()))
            .append("</td><td>")
            .append(j.path("peakLiveHeapMiB").asText())
            .append("</td><td>")
            .append(j.path("peakHeapMiB").asText())
            .append("</td></tr>");
      }
    }
    h.append("</table></section>");
  }

  private void svgOpen(String title, int width, int height) {
    h.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(height)
        .append("\" viewBox=\"0 0 ")
        .append(width)
        .append(' ')
        .append(height)
        .append("\"><title>")
        .append(esc(title))
        .append("</title>");
  }

  private void line(double x1, double y1, double x2, double y2, String color, boolean dashed) {
    h.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>",
            x1,
            y1,
            x2,
            y2,
            color,
            dashed ? " stroke-width=\"2\" stroke-dasharray=\"4 3\"" : ""));
  }

  private void rect(double x, double y, double w, double height, String color, String tip) {
    h.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s"
                + "</title></rect>",
            x,
            y,
            Math.max(0, w),
            height,
            color,
            esc(tip)));
  }

  private void circle(double x, double y, double r, String color, String tip) {
    h.append(
        String.format(
            Locale.ROOT,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>%s</title></circle>",
            x,
            y,
            r,
            color,
            esc(tip)));
  }

  private void text(double x, double y, String s, String anchor, int size) {
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>",
            x,
            y,
            anchor,
            size,
            esc(s)));
  }

  private static double niceCeil(double v) {
    if (v <= 0) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static String fmt(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
