package io.rekey.index;

import java.util.List;
import java.util.Map;

/**
 * What {@code index scrutiny} found, both ways: every source row's expected entries against every
 * entry in the index.
 *
 * @param valid entries that are in the index and expected from the source
 * @param missing expected entries the index lacks (their cells are older than the watermark)
 * @param pending expected entries the index lacks whose cells are newer than the watermark: the
 *     next update will add them, so they are not counted as missing
 * @param invalid entries whose source row exists but no longer gives them (the value changed)
 * @param orphan entries whose source row is gone (or whose key the layout cannot read)
 * @param samples up to N examples per kind, {@code index key -> source key (detail)}
 * @param written entries written by {@code --repair}
 * @param deleted entries deleted by {@code --repair}
 */
public record IndexScrutinyResult(
    String source,
    String index,
    Long watermark,
    long sourceRows,
    long indexEntries,
    long valid,
    long missing,
    long pending,
    long invalid,
    long orphan,
    Map<String, List<String>> samples,
    boolean repaired,
    long written,
    long deleted,
    double seconds) {
  public IndexScrutinyResult {
    samples = Map.copyOf(samples);
  }

  /** Whether the index is exactly what the source gives (pending entries aside). */
  public boolean clean() {
    return missing == 0 && invalid == 0 && orphan == 0;
  }
}
