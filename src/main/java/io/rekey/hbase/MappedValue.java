package io.rekey.hbase;

import java.io.Serializable;

/**
 * A cell's value on its way to an HFile, with the old row key when the layout is not injective (so
 * that two old rows landing on one new row can be found before loading). A plain class, not a
 * record: Spark's Kryo (4.x) cannot rebuild records in the shuffle.
 */
public final class MappedValue implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[] value;
  private final byte[] oldRow;

  /**
   * @param oldRow null when the layout is injective
   */
  public MappedValue(byte[] value, byte[] oldRow) {
    this.value = value;
    this.oldRow = oldRow;
  }

  public byte[] value() {
    return value;
  }

  /** The old row, or null when not tracked. */
  public byte[] oldRow() {
    return oldRow;
  }
}
