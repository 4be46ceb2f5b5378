package io.rekey.audit;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyLayout;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.keys.LayoutException;
import io.rekey.keys.SplitPoints;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What-if layouts: for a candidate key layout, where the sampled rows and the sampled recent writes
 * would land in a table pre-split for it. No HBase tool answers this before a migration; here it
 * costs nothing but the samples the audit keeps anyway.
 */
public final class LayoutSimulator {
  /** Split points shown per layout; the rest are counted. */
  static final int SPLIT_POINTS_SHOWN = 64;

  /** Layouts whose score is within this factor of the best are equally good (large samples). */
  static final double TIE = 1.15;

  /** The current key, pre-split only: the baseline every redesign must beat. */
  public static final String KEEP_KEY = "key";

  /**
   * What reports call the current key: split where the table is split today when simulated at
   * today's region count, else pre-split at quantiles of the sampled keys.
   */
  public static final String KEEP_KEY_NAME = "the current key";

  private LayoutSimulator() {}

  /**
   * A layout to try.
   *
   * @param name how reports call it
   * @param targetSpec the new key built from the source key's fields (or {@code key})
   */
  public record Candidate(String name, String targetSpec) implements Serializable {}

  /**
   * The layouts every audit tries: the current key, a salt over the whole key with 8, 16, 32 and 64
   * buckets, and, when the source key names its first field, a salt over that field and (for text
   * fields) the field reversed.
   */
  public static List<Candidate> defaults(KeyLayout sourceKey) {
    List<Candidate> out = new ArrayList<>();
    out.add(new Candidate(KEEP_KEY_NAME, KEEP_KEY));
    for (int buckets : new int[] {8, 16, 32, 64}) {
      out.add(new Candidate("salt(" + buckets + ") over the whole key", saltOverKey(buckets)));
    }
    String first = sourceKey == null ? null : sourceKey.firstKeyField();
    if (first != null) {
      out.add(
          new Candidate("salt(16) over the first field " + first, "salt(16, " + first + ") + key"));
      if (!sourceKey.fields().get(first).type().isNumber()) {
        out.add(
            new Candidate(
                "the first field " + first + " reversed", "reverse(" + first + ") + key"));
      }
    }
    return out;
  }

  static String saltOverKey(int buckets) {
    return "salt(" + buckets + ") + key";
  }

  /**
   * The samples read through the current key once, so that each candidate only builds its keys: the
   * rows (with their fields, null where the key does not match) and the recent cells.
   */
  public static final class Decoded {
    private final KeyLayout source;
    private final List<Samples.Row> rows = new ArrayList<>();
    private final List<Map<String, FieldValue>> rowFields = new ArrayList<>();
    private final List<Samples.Cell> recent = new ArrayList<>();
    private final List<Map<String, FieldValue>> recentFields = new ArrayList<>();
    private final List<byte[]> currentSplits;

    Decoded(KeyLayout source, List<byte[]> currentSplits) {
      this.source = source;
      this.currentSplits = currentSplits;
    }

    /** The fields of the {@code i}th sampled row, or null when its key or columns did not fit. */
    Map<String, FieldValue> rowFields(int i) {
      return rowFields.get(i);
    }
  }

  /**
   * Reads the samples through the current key.
   *
   * @param sourceSpec how the current key is made ({@code key} when unknown)
   * @param currentSplits the table's split points today: the current key simulated at today's
   *     region count is split there, as it really is
   * @param recentCutoffTs cells at or after this timestamp are recent writes
   */
  public static Decoded decode(
      String sourceSpec,
      List<byte[]> currentSplits,
      List<Samples.Row> rows,
      List<Samples.Cell> cells,
      long recentCutoffTs) {
    KeyMapping identity = KeyMapping.parse(sourceSpec, KEEP_KEY);
    Decoded d = new Decoded(identity.source(), List.copyOf(currentSplits));
    List<ColumnBinding> bindings = identity.source().columns();
    for (Samples.Row row : rows) {
      d.rows.add(row);
      d.rowFields.add(fields(identity, bindings, row.key(), row.columns()));
    }
    for (Samples.Cell cell : cells) {
      if (cell.ts() >= recentCutoffTs) {
        d.recent.add(cell);
        d.recentFields.add(fields(identity, bindings, cell.key(), cell.columns()));
      }
    }
    return d;
  }

  /** One layout on samples of a one-region table, for convenience and tests. */
  public static AuditResult.LayoutOutcome simulate(
      String sourceSpec,
      Candidate candidate,
      int regions,
      List<Samples.Row> rows,
      List<Samples.Cell> cells,
      long recentCutoffTs) {
    return simulate(candidate, regions, decode(sourceSpec, List.of(), rows, cells, recentCutoffTs));
  }

  /**
   * Simulates one layout.
   *
   * @param regions regions of the simulated table for layouts that do not start with a salt (a
   *     salted one gets at least one region per bucket)
   */
  public static AuditResult.LayoutOutcome simulate(
      Candidate candidate, int regions, Decoded sample) {
    KeyLayout target;
    try {
      target = KeyMapping.parse(sample.source.spec(), candidate.targetSpec()).target();
    } catch (LayoutException e) {
      return failed(candidate, "cannot be built from the source key: " + e.problemAndColumn());
    }
    List<byte[]> newKeys = new ArrayList<>();
    List<Samples.Row> mapped = new ArrayList<>();
    long rejects = 0;
    double keyBytes = 0;
    for (int i = 0; i < sample.rows.size(); i++) {
      Samples.Row row = sample.rows.get(i);
      byte[] key = encode(target, sample.rowFields.get(i), row.key());
      if (key == null) {
        rejects++;
        continue;
      }
      newKeys.add(key);
      mapped.add(row);
      keyBytes += key.length;
    }
    if (newKeys.isEmpty() || rejects * 2 > sample.rows.size()) {
      return failed(
          candidate,
          rejects + " of " + sample.rows.size() + " sampled rows cannot be mapped to this layout");
    }
    List<byte[]> splits;
    if (candidate.targetSpec().equals(KEEP_KEY) && regions == sample.currentSplits.size() + 1) {
      // The key as it is, at today's size: today's split points, not a new guess.
      splits = sample.currentSplits;
    } else {
      try {
        splits = SplitPoints.plan(target, regions, newKeys);
      } catch (LayoutException e) {
        return failed(candidate, e.getMessage());
      }
    }
    int n = splits.size() + 1;
    double[] rowCounts = new double[n];
    double[] cellCounts = new double[n];
    for (int i = 0; i < newKeys.size(); i++) {
      int r = regionOf(splits, newKeys.get(i));
      rowCounts[r]++;
      cellCounts[r] += mapped.get(i).cells();
    }
    double[] recent = new double[n];
    long recentMapped = 0;
    for (int i = 0; i < sample.recent.size(); i++) {
      byte[] key = encode(target, sample.recentFields.get(i), sample.recent.get(i).key());
      if (key != null) {
        recent[regionOf(splits, key)]++;
        recentMapped++;
      }
    }
    List<String> shown = new ArrayList<>();
    for (byte[] s : splits.subList(0, Math.min(SPLIT_POINTS_SHOWN, splits.size()))) {
      shown.add(Bytes.toStringBinary(s));
    }
    return new AuditResult.LayoutOutcome(
        candidate.name(),
        candidate.targetSpec(),
        n,
        shown,
        maxOverMean(rowCounts),
        maxOverMean(cellCounts),
        maxOverMean(recent),
        KeyShape.round(keyBytes / newKeys.size()),
        recentMapped,
        rejects,
        null);
  }

  private static AuditResult.LayoutOutcome failed(Candidate c, String problem) {
    return new AuditResult.LayoutOutcome(
        c.name(), c.targetSpec(), 0, List.of(), 0, 0, 0, 0, 0, 0, problem);
  }

  private static Map<String, FieldValue> fields(
      KeyMapping identity, List<ColumnBinding> bindings, byte[] key, byte[][] columns) {
    ColumnValues values =
        (family, qualifier) -> {
          for (int i = 0; i < bindings.size() && i < columns.length; i++) {
            ColumnBinding b = bindings.get(i);
            if (b.family().equals(family) && b.qualifier().equals(qualifier)) {
              return columns[i];
            }
          }
          return null;
        };
    try {
      return identity.sourceFields(key, values);
    } catch (KeyReject e) {
      return null;
    }
  }

  private static byte[] encode(KeyLayout target, Map<String, FieldValue> fields, byte[] oldKey) {
    if (fields == null) {
      return null;
    }
    try {
      return target.encode(fields, oldKey);
    } catch (KeyReject e) {
      return null;
    }
  }

  static int regionOf(List<byte[]> splits, byte[] key) {
    int lo = 0;
    int hi = splits.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compareTo(splits.get(mid), key) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The largest count over the mean count: 1 is perfectly even, n means one of n takes all. */
  static double maxOverMean(double[] counts) {
    double sum = 0;
    double max = 0;
    for (double c : counts) {
      sum += c;
      max = Math.max(max, c);
    }
    return sum == 0 ? 0 : KeyShape.round(max / (sum / counts.length));
  }

  /** The recommended layout and why. */
  public record Recommendation(String name, String why) {}

  /**
   * The layout to choose: the most even for recent writes and stored cells; among those within
   * {@link #TIE} of the best, the current key (no migration), then fewer regions (fewer scans per
   * read), then shorter keys.
   */
  public static Recommendation recommend(List<AuditResult.LayoutOutcome> outcomes) {
    List<AuditResult.LayoutOutcome> usable =
        outcomes.stream().filter(o -> o.problem() == null).toList();
    if (usable.isEmpty()) {
      return new Recommendation(null, "no layout could be simulated");
    }
    AuditResult.LayoutOutcome bestOutcome =
        usable.stream().min(Comparator.comparingDouble(LayoutSimulator::score)).orElseThrow();
    double best = score(bestOutcome);
    double tie = tie(bestOutcome);
    AuditResult.LayoutOutcome chosen =
        usable.stream()
            .filter(o -> score(o) <= best * tie)
            .min(
                Comparator.comparing((AuditResult.LayoutOutcome o) -> !o.spec().equals(KEEP_KEY))
                    .thenComparingInt(AuditResult.LayoutOutcome::regions)
                    .thenComparingDouble(AuditResult.LayoutOutcome::avgKeyBytes))
            .orElseThrow();
    String why =
        String.format(
            "recent writes %.2f× the mean region, stored cells %.2f×, over %d regions; the most"
                + " even layouts score %.2f, and among those within %d%% this one %s",
            chosen.recentMaxOverMean(),
            chosen.cellsMaxOverMean(),
            chosen.regions(),
            best,
            Math.round((tie - 1) * 100),
            chosen.spec().equals(KEEP_KEY)
                ? "keeps the current key: no redesign needed, pre-split the table"
                : "needs the fewest regions and the shortest key");
    return new Recommendation(chosen.name(), why);
  }

  /**
   * How much worse than the best still counts as just as even: {@link #TIE}, or more when the
   * sample is small. With m sampled recent writes per region, sampling alone moves the largest
   * region by about 2.5/√m of the mean, and differences within that are noise.
   */
  static double tie(AuditResult.LayoutOutcome best) {
    double perRegion = best.recentSampleCells() / (double) Math.max(1, best.regions());
    return perRegion <= 0 ? TIE : Math.max(TIE, 1 + 2.5 / Math.sqrt(perRegion));
  }

  static double score(AuditResult.LayoutOutcome o) {
    return Math.max(o.recentMaxOverMean(), o.cellsMaxOverMean());
  }
}
