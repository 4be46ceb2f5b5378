package io.rekey.verify;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The source rows a comparison could not place in the target: rows that hold cells a read returns
 * but whose key the mapping rejects (a key-bound column deleted, a value the layout refuses, a key
 * that does not parse). They are in no region's count, so a verdict states them beside itself: a
 * match is a match of every other row.
 *
 * @param rows how many source rows could not be mapped
 * @param byReason those rows by the layout's reason (e.g. {@code FIELD_MISSING})
 * @param examples the first few, each {@code KEY REASON: detail}
 */
public record UnmappedRows(long rows, TreeMap<String, Long> byReason, List<String> examples)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Examples kept, at most. */
  static final int EXAMPLES = 5;

  public static final UnmappedRows NONE = new UnmappedRows(0, new TreeMap<>(), List.of());

  public UnmappedRows {
    byReason = new TreeMap<>(byReason);
    examples = List.copyOf(examples);
  }

  /** One row. */
  static UnmappedRows of(String key, String reason, String detail) {
    return new UnmappedRows(
        1, new TreeMap<>(Map.of(reason, 1L)), List.of(key + " " + reason + ": " + detail));
  }

  public UnmappedRows plus(UnmappedRows o) {
    if (o.rows == 0) {
      return this;
    }
    if (rows == 0) {
      return o;
    }
    TreeMap<String, Long> reasons = new TreeMap<>(byReason);
    o.byReason.forEach((k, v) -> reasons.merge(k, v, Long::sum));
    List<String> some = new ArrayList<>(examples);
    for (String e : o.examples) {
      if (some.size() < EXAMPLES) {
        some.add(e);
      }
    }
    return new UnmappedRows(rows + o.rows, reasons, some);
  }

  /**
   * Whether a match of the other rows may stand as the verdict: no row is unmapped, or the operator
   * acknowledged exactly this many ({@code --accept-unmapped}, null when not given).
   */
  public boolean acknowledged(Long accepted) {
    return accepted == null ? rows == 0 : rows == accepted;
  }

  /** The one line that refuses a verdict {@link #acknowledged} does not let stand. */
  public String refusal(Long accepted) {
    String first = examples.isEmpty() ? "" : " (first: " + examples.get(0) + ")";
    return accepted == null
        ? line()
            + first
            + ": they are in no region's count, so the target cannot be said to hold the source."
            + " Give them values the layout accepts and sync, or acknowledge exactly these rows"
            + " with --accept-unmapped "
            + rows
        : "--accept-unmapped "
            + accepted
            + " does not acknowledge what was found: "
            + line()
            + first
            + ". Check them and give the count found";
  }

  /** E.g. {@code 3 source rows cannot be mapped (FIELD_MISSING 2, FIELD_NOT_NUMBER 1)}. */
  public String line() {
    if (rows == 0) {
      return "0 source rows cannot be mapped";
    }
    List<String> reasons = new ArrayList<>();
    byReason.forEach((k, v) -> reasons.add(k + " " + v));
    return String.format(
        "%,d source row%s cannot be mapped (%s)",
        rows, rows == 1 ? "" : "s", String.join(", ", reasons));
  }
}
