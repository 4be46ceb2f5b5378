package io.rekey.generate;

import java.util.List;

/**
 * What {@code generate} wrote.
 *
 * @param topSenders the busiest senders with their message counts, busiest first
 * @param createdTable whether the table was created by this run
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
    double seconds) {
  public GenerateResult {
    topSenders = List.copyOf(topSenders);
  }

  /** A sender and how many messages it sent. */
  public record SenderCount(String sender, long messages) {}
}
