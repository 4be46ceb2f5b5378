package io.rekey.keys;

/**
 * A spec that cannot be parsed or a layout that cannot work, with the place in the spec: {@code
 * salt buckets is 0 but must be 1..256 (column 6)}.
 */
public final class LayoutException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int column;

  public LayoutException(String message, int column) {
    super(column > 0 ? message + " (column " + column + ")" : message);
    this.column = column;
  }

  /** 1-based position in the spec, or 0 when the problem is the layout as a whole. */
  public int column() {
    return column;
  }
}
