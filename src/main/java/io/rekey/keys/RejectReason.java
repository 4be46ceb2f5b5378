package io.rekey.keys;

/** Why a key could not be mapped. Stable names: they go into rejects files. */
public enum RejectReason {
  /** The old key does not have the shape the source spec describes. */
  SOURCE_MISMATCH,
  /** A field the target needs has no value (e.g. the column is missing in that row). */
  FIELD_MISSING,
  /** A field that must be a number is not one. */
  NOT_A_NUMBER,
  /** A number is outside what its encoding can hold (negative, too many digits, over int). */
  NUMBER_OUT_OF_RANGE,
  /** A number is written in a way that would not come back the same (leading zeros, '+'). */
  NOT_CANONICAL,
  /** A value contains the separator that must end it, so it could not be read back. */
  SEPARATOR_IN_VALUE,
  /** A fixed-width field has a value of another length. */
  WRONG_LENGTH,
  /** The new key is longer than HBase's 32,767-byte limit. */
  KEY_TOO_LONG
}
