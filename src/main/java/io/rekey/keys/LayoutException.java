package io.rekey.keys;

/**
 * A spec that cannot be parsed or a layout that cannot work, with the place in the spec: {@code
 * salt buckets is 0 but must be 1..256 (column 6)}.
 */
public final class LayoutException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int column;
  private final String side;
  private final String problem;

  public LayoutException(String message, int column) {
    this(message, column, null);
  }

  private LayoutException(String problem, int column, String side) {
    super(
        (side == null ? "" : side + ": ")
            + problem
            + (column > 0 ? " (column " + column + ")" : ""));
    this.problem = problem;
    this.column = column;
    this.side = side;
  }

  /** The same problem, said to be in the {@code source key} or {@code target key} spec. */
  LayoutException in(String specSide) {
    return new LayoutException(problem, column, specSide);
  }

  /** {@code source key}, {@code target key}, or null when not known. */
  public String side() {
    return side;
  }

  /** The message without the side: the problem and its column. */
  public String problemAndColumn() {
    return problem + (column > 0 ? " (column " + column + ")" : "");
  }

  /** 1-based position in the spec, or 0 when the problem is the layout as a whole. */
  public int column() {
    return column;
  }
}
