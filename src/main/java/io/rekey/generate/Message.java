package io.rekey.generate;

import java.util.List;

/**
 * One generated message row: its key and cells in family {@code m}.
 *
 * @param rowKey {@code <epoch-millis>_<sender>_<message-id>}
 * @param sender the sender id, also stored in {@code m:sender}
 * @param cells the cells, several versions of {@code m:read} for some rows
 */
public record Message(String rowKey, String sender, long timestamp, List<GeneratedCell> cells) {
  public Message {
    cells = List.copyOf(cells);
  }

  /** One cell: qualifier, timestamp and value in family {@code m}. */
  public record GeneratedCell(String qualifier, long timestamp, byte[] value) {}
}
