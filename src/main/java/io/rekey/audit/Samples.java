package io.rekey.audit;

import java.io.Serializable;

/** The items the profiler keeps in its bounded samples and top lists. */
public final class Samples {
  private Samples() {}

  /**
   * A sampled row.
   *
   * @param columns the newest values of the columns the source key binds, in binding order (null
   *     entries for missing ones)
   */
  public record Row(byte[] key, long cells, long bytes, long newestTs, byte[][] columns)
      implements Serializable {}

  /** A sampled cell: where (its row) and when (its timestamp) something was written. */
  public record Cell(byte[] key, long ts, byte[][] columns) implements Serializable {}

  /** A row in a top list: its printable key, cells, columns and bytes. */
  public record RowSize(String key, long cells, long columns, long bytes) implements Serializable {}

  /** A cell in the top list of largest values. */
  public record BigCell(String row, String column, long valueBytes, long ts)
      implements Serializable {}
}
