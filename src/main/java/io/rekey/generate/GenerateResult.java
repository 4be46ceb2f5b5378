package io.rekey.generate;

import io.rekey.common.JsonResult;
import java.util.List;

/**
 * What {@code generate} wrote.
 *
 * @param table the table written
 * @param rows rows written
 * @param cells cells written
 * @param valueBytes bytes of the values written
 * @param firstKey the smallest row key written, printable
 * @param lastKey the largest row key written, printable
 * @param firstTimestamp the oldest cell timestamp written (epoch millis)
 * @param lastTimestamp the newest cell timestamp written (epoch millis)
 * @param topSenders the busiest senders with their message counts, busiest first
 * @param createdTable whether the table was created by this run
 * @param skippedNonEmpty nothing was written because the table held rows ({@code --if-nonempty
 *     skip})
 * @param rowsDeleted rows deleted after writing ({@code --delete-rows})
 * @param seconds wall time of the run
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
    double seconds)
    implements JsonResult {
  public GenerateResult {
    topSenders = List.copyOf(topSenders);
  }

  /** The result of a run that wrote nothing because the table already held rows. */
  public static GenerateResult skipped(String table, double seconds) {
    return new GenerateResult(table, 0, 0, 0, null, null, 0, 0, List.of(), false, true, 0, seconds);
  }

  /**
   * A sender and how many messages it sent.
   *
   * @param sender the sender
   * @param messages its messages
   */
  public record SenderCount(String sender, long messages) {}
}
