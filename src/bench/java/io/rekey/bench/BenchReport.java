package io.rekey.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rekey.common.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gathers the benchmarks' JSON files into one ({@code bench-all.json}): every figure, the targets
 * with the value each reached and its JSON path, and writes a self-contained HTML page ({@code
 * bench-all.html}: inline SVG charts, no script, nothing fetched) for people.
 *
 * <p>Run by {@code jobs/bench-all.sh}: {@code BenchReport DIR} reads {@code DIR/*-bench.json}.
 */
public final class BenchReport {
  /** One target of the issue: a ratio that must be at least or at most a bound. */
  record Target(String name, String path, double bound, boolean atLeast) {}

  static final List<String> PARTS = List.of("rekey", "index", "audit", "profile", "scale", "wide");

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    ObjectNode all = Json.mapper().createObjectNode();
    all.put("generated", Instant.now().toString());
    ObjectNode host = all.putObject("host");
    host.put("cores", Runtime.getRuntime().availableProcessors());
    host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    host.put("java", System.getProperty("java.version"));
    host.put("memTotal", memTotal());
    List<Target> targets = new ArrayList<>();
    targets.add(new Target("rekey vs equal Put copy", "rekey.rekeyVsPutBased", 3, true));
    targets.add(new Target("rekey vs equal hbase-spark", "rekey.rekeyVsHbaseSpark", 2, true));
    targets.add(new Target("rekey over its read floor", "rekey.rekeyOverFloor", 3, false));
    targets.add(new Target("rekey over its copy floor", "rekey.rekeyOverCopyFloor", 1.5, false));
    targets.add(
        new Target(
            "verify vs HashTable + SyncTable --dryrun",
            "rekey.verifyPeer.verifyVsHashTableSyncTable",
            3,
            true));
    targets.add(new Target("index build vs Put builder", "index.buildVsPutBased", 3, true));
    targets.add(new Target("audit over its read floor", "audit.auditOverFloor", 1.3, false));
    for (String part : PARTS) {
      Path file = dir.resolve(part + "-bench.json");
      if (Files.exists(file)) {
        all.set(part, Json.mapper().readTree(file.toFile()));
      }
    }
    JsonNode sizes = all.path("scale").path("sizes");
    for (int i = 0; i < sizes.size(); i++) {
      String at = "scale.sizes[" + i + "].";
      String cells = millions(sizes.get(i).path("cells").asLong());
      targets.add(
          new Target("index build vs Put builder, " + cells, at + "indexBuildVsPutBased", 3, true));
      targets.add(new Target("rekey over floor, " + cells, at + "rekeyOverFloor", 3, false));
      targets.add(new Target("audit over floor, " + cells, at + "auditOverFloor", 1.3, false));
    }
    List<Map<String, Object>> checked = new ArrayList<>();
    for (Target t : targets) {
      JsonNode ratio = at(all, t.path());
      if (ratio.isMissingNode()) {
        continue;
      }
      double value = ratio.path("medianOfRounds").asDouble();
      boolean met = t.atLeast() ? value >= t.bound() : value <= t.bound();
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("target", t.name() + (t.atLeast() ? " >= " : " <= ") + t.bound() + "x");
      row.put("value", value);
      row.put("spread", ratio.path("min").asDouble() + " .. " + ratio.path("max").asDouble());
      row.put("met", met);
      // How far off, as a share of the bound: 2.4 against >= 3 is 20% short.
      row.put(
          "missedBy",
          met
              ? null
              : t.atLeast()
                  ? pct(1 - value / t.bound()) + " below"
                  : pct(value / t.bound() - 1) + " above");
      row.put("jsonPath", "$." + t.path() + ".medianOfRounds");
      checked.add(row);
    }
    if (sizes.size() > 1) {
      ObjectNode flatness = ((ObjectNode) all.path("scale")).putObject("flatness");
      for (String m : List.of("rekey", "indexBuild", "indexPutBased", "audit", "floor")) {
        Map<String, Object> f = flatness(sizes, m);
        flatness.set(m, Json.mapper().valueToTree(f));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("target", m + ": time per cell does not grow by more than 15% from size to size");
        row.put("value", f.get("perCellTimeOverPreviousSize").toString());
        row.put("spread", "over the smallest: " + f.get("perCellTimeOverSmallest"));
        row.put("met", !(Boolean) f.get("grows"));
        row.put("missedBy", null);
        row.put("jsonPath", "$.scale.flatness." + m);
        checked.add(row);
      }
    }
    all.set("targets", Json.mapper().valueToTree(checked));
    Files.writeString(dir.resolve("bench-all.json"), Json.toJson(all) + "\n");
    Files.writeString(dir.resolve("bench-all.html"), new BenchHtml(all).render());
    System.out.println("wrote " + dir.resolve("bench-all.json") + " and bench-all.html");
    for (Map<String, Object> row : checked) {
      System.out.println(
          (Boolean.TRUE.equals(row.get("met")) ? "  met     " : "  MISSED  ")
              + row.get("target")
              + ": "
              + row.get("value")
              + (row.get("missedBy") != null ? " (" + row.get("missedBy") + " the target)" : ""));
    }
  }

  /**
   * A method's time per cell at each size, over the smallest size's and over the size before's.
   * Flat means within 15% both ways; {@code grows} means some size costs more than 15% more per
   * cell than the one before it, which is what would make big tables slow. Per-cell time that falls
   * with size is the fixed costs (job start, snapshot, plan, load) spread over more cells.
   */
  static Map<String, Object> flatness(JsonNode sizes, String method) {
    List<Double> overSmallest = new ArrayList<>();
    List<Double> overPrevious = new ArrayList<>();
    double first = sizes.get(0).path(method).path("nanosPerCell").asDouble();
    double previous = first;
    for (JsonNode size : sizes) {
      double perCell = size.path(method).path("nanosPerCell").asDouble();
      overSmallest.add(RekeyBenchmark.round(perCell / first));
      if (size != sizes.get(0)) {
        overPrevious.add(RekeyBenchmark.round(perCell / previous));
      }
      previous = perCell;
    }
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("perCellTimeOverSmallest", overSmallest);
    f.put("perCellTimeOverPreviousSize", overPrevious);
    f.put("flatWithin15Percent", overSmallest.stream().allMatch(r -> r >= 0.85 && r <= 1.15));
    f.put("grows", overPrevious.stream().anyMatch(r -> r > 1.15));
    return f;
  }

  /** The node at a dotted path with {@code [i]} indexes. */
  static JsonNode at(JsonNode root, String path) {
    JsonNode n = root;
    for (String part : path.split("\\.")) {
      int bracket = part.indexOf('[');
      if (bracket >= 0) {
        n = n.path(part.substring(0, bracket));
        n = n.path(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
      } else {
        n = n.path(part);
      }
    }
    return n;
  }

  static String millions(long cells) {
    return String.format(Locale.ROOT, "%.1fM cells", cells / 1e6);
  }

  static String pct(double share) {
    return String.format(Locale.ROOT, "%.0f%%", share * 100);
  }

  private static String memTotal() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return line.substring(9).trim();
        }
      }
    } catch (IOException e) {
      // Not Linux: the host's memory is left out.
    }
    return "unknown";
  }

  private BenchReport() {}
}
