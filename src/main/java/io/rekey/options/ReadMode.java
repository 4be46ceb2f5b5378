package io.rekey.options;

/** How a job reads a whole table: from a snapshot of it, or through its region servers. */
public enum ReadMode {
  /** A consistent point in time, read from the snapshot's files: no load on region servers. */
  SNAPSHOT,
  /** A scan through the region servers. */
  LIVE_SCAN;

  /** {@code snapshot} or {@code live-scan}, as the option and the results name it. */
  public String cliName() {
    return OptionDef.cliName(this);
  }
}
