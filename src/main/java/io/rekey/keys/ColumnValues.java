package io.rekey.keys;

/** The newest value of a column in the row being mapped, for fields bound to columns. */
@FunctionalInterface
public interface ColumnValues {
  /** The value, or null when the row has no such cell. */
  byte[] get(String family, String qualifier);

  /** A row with no columns. */
  ColumnValues NONE = (family, qualifier) -> null;
}
