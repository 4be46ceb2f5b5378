package io.rekey.keys;

/**
 * How a layout writes numbers, salts and hashes: as compact bytes, or as text a person can read in
 * the HBase shell. Written at the start of a spec ({@code text: ...}); binary is the default.
 */
public enum KeyMode {
  /** Salt as one byte, numbers as big-endian bytes, hashes as raw bytes. */
  BINARY,
  /** Salt and fixed-width numbers as zero-padded decimal, hashes as lowercase hex. */
  TEXT
}
