package io.rekey.index;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What scrutiny finds an index entry (or a source row's record) to be, and the rules that decide
 * it: plain functions of the expected and present entries and the watermark, tested without a
 * cluster. Spark's data carries the {@link #label()} (an enum's hash differs from JVM to JVM, so it
 * cannot key a shuffle); {@link #of(String)} reads it back.
 */
public enum ScrutinyKind {
  /** Present and expected, covering what the source has. */
  VALID,
  /** Present and expected, but covering other values than the source has now. */
  STALE,
  /** Expected and not present. */
  MISSING,
  /** Differs, but its source row changed at or after the watermark: the next update settles it. */
  PENDING,
  /** Present, not expected, and its source row exists. */
  INVALID,
  /** Present, and its source row does not exist. */
  ORPHAN,
  /** A source row whose record of its entries is missing or wrong. */
  UNTRACKED,
  /** A row of the index table that is no entry of this index. */
  FOREIGN,
  /** Present and not expected: INVALID or ORPHAN once its source row is looked up. */
  UNEXPECTED;

  /** The kinds a repair mends: entries it writes or deletes, and row records it writes. */
  public static final Set<ScrutinyKind> REPAIRED =
      EnumSet.of(MISSING, STALE, INVALID, ORPHAN, UNTRACKED);

  /** The name in results and reports: {@code missing}, {@code stale}… */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind a {@link #label()} names. */
  public static ScrutinyKind of(String label) {
    return valueOf(label.toUpperCase(Locale.ROOT));
  }

  /**
   * An entry both expected and present: valid when it covers what the source has; otherwise stale,
   * or pending when its source row changed at or after the watermark.
   */
  static ScrutinyKind ofBoth(ScrutinyEntry want, ScrutinyEntry have, long watermark) {
    if (want.covered().equals(have.covered())) {
      return VALID;
    }
    return want.sourceTs() >= watermark ? PENDING : STALE;
  }

  /**
   * An entry expected and not present: missing, or pending when it or its source row is stamped at
   * or after the watermark (an update has yet to write it).
   */
  static ScrutinyKind ofExpectedOnly(ScrutinyEntry want, long watermark) {
    return want.ts() >= watermark || want.sourceTs() >= watermark ? PENDING : MISSING;
  }

  /**
   * An entry present and not expected, given its source row's newest cell time (null when the row
   * does not exist): orphan without a row, pending when the row changed at or after the watermark
   * (the next update retires it), else invalid.
   */
  static ScrutinyKind ofUnexpected(Long sourceNewest, long watermark) {
    if (sourceNewest == null) {
      return ORPHAN;
    }
    return sourceNewest >= watermark ? PENDING : INVALID;
  }
}
