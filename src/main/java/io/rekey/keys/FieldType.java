package io.rekey.keys;

/** The logical type of a field, which decides how it is written in each {@link KeyMode}. */
public enum FieldType {
  /** Bytes, usually text: variable length. */
  STR,
  /** A signed 64-bit number: 8 bytes in binary keys, decimal digits in text keys. */
  LONG,
  /** A signed 32-bit number: 4 bytes in binary keys, decimal digits in text keys. */
  INT,
  /** Exactly {@code width} raw bytes. */
  BYTES;

  /** The name used in specs. */
  public String specName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public boolean isNumber() {
    return this == LONG || this == INT;
  }
}
