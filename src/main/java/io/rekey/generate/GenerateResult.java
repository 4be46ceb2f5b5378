package io.rekey.generate;

import java.util.List;

/**
 * What {@code generate} wrote.
 *
 * @param topSenders the busiest senders with their message counts, busiest first
 * @param createdTable whether the table was created by this run
 * @param skippedNonEmpty nothing was written because the table held rows ({@code --if-nonempty
 *     skip})
 * @param rowsDeleted rows deleted after writing ({@code --delete-rows})
 */
public record GenerateResult(
    String table,
    long rows,
    long cells,
    long valueBytes,
    String firstKey,
    String lastKey,
    long firstTimestamp,
    long lastTimestamp,
    List<SenderCount> topSenders,
    boolean createdTable,
    boolean skippedNonEmpty,
    long rowsDeleted,
    double seconds) {
  public GenerateResult {
    topSenders = List.copyOf(topSenders);
  }

  /** The result of a run that wrote nothing because the table already held rows. */
  public static GenerateResult skipped(String table, double seconds) {
    return new GenerateResult(table, 0, 0, 0, null, null, 0, 0, List.of(), false, true, 0, seconds);
  }

  /** A sender and how many messages it sent. */
  public record SenderCount(String sender, long messages) {}
}
