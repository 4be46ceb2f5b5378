package io.rekey.index;

import io.rekey.common.JsonResult;
import io.rekey.index.entries.RowRecord;
import java.util.List;
import java.util.Map;

/**
 * What {@code index scrutiny} found, both ways: every source row's expected entries against every
 * entry in the index.
 *
 * @param source the indexed table
 * @param index the index table
 * @param watermark the index's watermark (epoch millis): cells older than it must be indexed; null
 *     before the first build
 * @param sourceRows source rows read
 * @param indexEntries entries read from the index
 * @param valid entries that are in the index and expected from the source, with its covered values
 * @param stale entries that are in the index and expected, but whose covered values differ from the
 *     source's (older than the watermark; newer ones are pending)
 * @param missing expected entries the index lacks (their cells are older than the watermark)
 * @param pending expected entries the index lacks, or holds with other covered values, whose source
 *     cells are newer than the watermark: the next update writes them, so they count as neither
 *     missing nor stale
 * @param invalid entries whose source row exists but no longer gives them (the value changed)
 * @param orphan entries whose source row is gone
 * @param untracked source rows whose row record ({@link RowRecord}) does not list exactly the
 *     entries they give: an update would not retire an entry the record leaves out
 * @param foreign rows of the index table that are no entries of this index (no marker cell, or a
 *     key the layout cannot read): counted and shown, never repaired
 * @param samples up to N examples per kind, {@code index key -> source key (detail)}
 * @param repaired whether --repair wrote the fixes
 * @param written entries written by {@code --repair} (missing and stale ones)
 * @param deleted entries deleted by {@code --repair} (which also writes the untracked rows'
 *     records)
 * @param seconds wall time of the run
 */
public record IndexScrutinyResult(
    String source,
    String index,
    Long watermark,
    long sourceRows,
    long indexEntries,
    long valid,
    long stale,
    long missing,
    long pending,
    long invalid,
    long orphan,
    long untracked,
    long foreign,
    Map<String, List<String>> samples,
    boolean repaired,
    long written,
    long deleted,
    double seconds)
    implements JsonResult {
  public IndexScrutinyResult {
    samples = Map.copyOf(samples);
  }

  /**
   * Whether the index is exactly what the source gives (pending entries aside; foreign rows are not
   * the index's and do not count).
   */
  public boolean clean() {
    return missing == 0 && stale == 0 && invalid == 0 && orphan == 0 && untracked == 0;
  }
}
