package io.rekey.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rounds of several methods on the same data in one JVM, as every benchmark here measures them:
 * warm-up rounds that are not counted, then measured rounds in which the methods' order is rotated
 * (round r starts with method r mod n), so that no method always runs first on a cold page cache or
 * last after the others' garbage. Reports each method's median and each round's figures, and ratios
 * both as the ratio of medians and as the median of per-round ratios: a method and its peer in one
 * round ran under the same load from the rest of the machine, so that median moves less.
 */
final class Rounds {
  /** One measured method: what it runs, and what to record after it untimed (may be null). */
  record Method(String name, RekeyBenchmark.Timed run, After after) {
    Method(String name, RekeyBenchmark.Timed run) {
      this(name, run, null);
    }
  }

  /** Untimed work after a method's run (a flush, say) that adds fields to its measurement. */
  interface After {
    void record(Map<String, Object> measurement) throws Exception;
  }

  /** Untimed work before each round: dropping the last round's tables. */
  interface BeforeRound {
    void run() throws Exception;
  }

  private final int warmUp;
  private final int measured;
  private final Map<String, List<Map<String, Object>>> byMethod = new LinkedHashMap<>();
  private final List<List<String>> orders = new ArrayList<>();

  Rounds(int warmUp, int measured) {
    if (measured < 1) {
      throw new IllegalArgumentException("bench.rounds must be 1 or more, not " + measured);
    }
    this.warmUp = warmUp;
    this.measured = measured;
  }

  /** The measured rounds from -Dbench.rounds (default 5), after -Dbench.warmUp (default 1). */
  static Rounds fromProperties(int defaultMeasured) {
    return new Rounds(
        Integer.getInteger("bench.warmUp", 1), Integer.getInteger("bench.rounds", defaultMeasured));
  }

  /** Runs every round and keeps the measured ones' figures. */
  Rounds run(String what, List<Method> methods, BeforeRound before) throws Exception {
    for (Method m : methods) {
      byMethod.put(m.name(), new ArrayList<>());
    }
    int n = methods.size();
    for (int round = 0; round < warmUp + measured; round++) {
      if (before != null) {
        before.run();
      }
      List<String> order = new ArrayList<>();
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < n; i++) {
        Method m = methods.get((round + i) % n);
        Map<String, Object> figures = RekeyBenchmark.measure(m.run());
        if (m.after() != null) {
          m.after().record(figures);
        }
        order.add(m.name());
        line.append(", ").append(m.name()).append(' ').append(figures.get("seconds")).append(" s");
        if (round >= warmUp) {
          byMethod.get(m.name()).add(figures);
        }
      }
      if (round >= warmUp) {
        orders.add(order);
      }
      System.err.printf(
          "bench %s %s %d of %d%s%n",
          what,
          round < warmUp ? "warm-up round" : "round",
          round < warmUp ? round + 1 : round - warmUp + 1,
          round < warmUp ? warmUp : measured,
          line);
    }
    return this;
  }

  /** A method's measured rounds, in order. */
  List<Map<String, Object>> of(String method) {
    return byMethod.get(method);
  }

  List<Double> seconds(String method) {
    List<Double> s = new ArrayList<>();
    for (Map<String, Object> m : of(method)) {
      s.add((double) m.get("seconds"));
    }
    return s;
  }

  double medianSeconds(String method) {
    return median(seconds(method));
  }

  /**
   * A method's summary: median seconds and cells per second over the measured rounds, each round's
   * seconds, the most heap any round held, and the last round's own fields ({@code settings} and
   * the like) under {@code lastRound}.
   */
  Map<String, Object> summary(String method) {
    List<Map<String, Object>> runs = of(method);
    Map<String, Object> last = runs.get(runs.size() - 1);
    long cells = (long) last.get("cells");
    double median = medianSeconds(method);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("cells", cells);
    s.put("medianSeconds", median);
    s.put("medianCellsPerSecond", RekeyBenchmark.round(cells / median));
    s.put("nanosPerCell", RekeyBenchmark.round(median * 1e9 / Math.max(1, cells)));
    s.put("secondsOfEachRound", seconds(method));
    s.put("peakLiveHeapMiB", maxOf(runs, "peakLiveHeapMiB"));
    s.put("peakHeapMiB", maxOf(runs, "peakHeapMiB"));
    // Beside each round's time: the cores it kept busy and how long the JIT compiled during it.
    s.put("machineBusyCoresOfEachRound", cpuOfEachRound(runs, "machineBusyCores"));
    s.put("machineStolenCoresOfEachRound", cpuOfEachRound(runs, "machineStolenCores"));
    s.put("jitCompileSecondsOfEachRound", cpuOfEachRound(runs, "jitCompileSeconds"));
    s.put("lastRound", last);
    return s;
  }

  private static List<Object> cpuOfEachRound(List<Map<String, Object>> runs, String field) {
    List<Object> out = new ArrayList<>();
    for (Map<String, Object> run : runs) {
      Object cpu = run.get("cpu");
      out.add(cpu instanceof Map<?, ?> m ? m.get(field) : null);
    }
    return out;
  }

  /**
   * How many times faster {@code fast} is than {@code slow}: {@code slow}'s seconds over {@code
   * fast}'s, per round and of the medians. Both must have handled the same cells.
   */
  Map<String, Object> speedup(String fast, String slow) {
    List<Double> f = seconds(fast);
    List<Double> s = seconds(slow);
    List<Double> each = new ArrayList<>();
    for (int i = 0; i < f.size(); i++) {
      each.add(RekeyBenchmark.round(s.get(i) / f.get(i)));
    }
    return ratio(each, medianSeconds(slow) / medianSeconds(fast));
  }

  /**
   * {@link #speedup}, with {@code slow}'s untimed {@code extra} seconds (its flush, say) added to
   * its time: the median of the per-round ratios.
   */
  double speedupWith(String fast, String slow, String extra) {
    List<Double> f = seconds(fast);
    List<Double> each = new ArrayList<>();
    for (int i = 0; i < f.size(); i++) {
      Map<String, Object> s = of(slow).get(i);
      double slowSeconds = (double) s.get("seconds") + (double) s.get(extra);
      each.add(RekeyBenchmark.round(slowSeconds / f.get(i)));
    }
    return RekeyBenchmark.round(median(each));
  }

  /** How many times {@code floor}'s time {@code method} takes, per round and of the medians. */
  Map<String, Object> overFloor(String method, String floor) {
    return speedup(floor, method);
  }

  private static Map<String, Object> ratio(List<Double> eachRound, double ofMedians) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("medianOfRounds", RekeyBenchmark.round(median(eachRound)));
    r.put("ofMedians", RekeyBenchmark.round(ofMedians));
    r.put("eachRound", eachRound);
    r.put("min", eachRound.stream().mapToDouble(Double::doubleValue).min().orElse(0));
    r.put("max", eachRound.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    return r;
  }

  /** What the report says about how the rounds ran. */
  Map<String, Object> describe() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("warmUpRounds", warmUp);
    d.put("measuredRounds", measured);
    d.put("orderOfEachRound", orders);
    d.put(
        "how",
        "every method in every round, one JVM, same data; the order rotates each round; medians"
            + " over the measured rounds, and ratios as the median of per-round ratios");
    return d;
  }

  /** The median of each named stage's seconds over a method's rounds (from {@code stages}). */
  Map<String, Double> medianStages(String method) {
    Map<String, List<Double>> each = new LinkedHashMap<>();
    for (Map<String, Object> m : of(method)) {
      @SuppressWarnings("unchecked")
      Map<String, Double> stages = (Map<String, Double>) m.get("stages");
      if (stages != null) {
        stages.forEach((k, v) -> each.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
      }
    }
    Map<String, Double> medians = new LinkedHashMap<>();
    each.forEach((k, v) -> medians.put(k, RekeyBenchmark.round(median(v))));
    return medians;
  }

  private static Long maxOf(List<Map<String, Object>> runs, String key) {
    Long max = null;
    for (Map<String, Object> m : runs) {
      Object v = m.get(key);
      if (v instanceof Number n && (max == null || n.longValue() > max)) {
        max = n.longValue();
      }
    }
    return max;
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
