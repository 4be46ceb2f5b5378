package io.rekey.read;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;

/**
 * The options every job that reads a whole table shares, declared once: snapshot or live scan, and
 * the scan batch for wide rows.
 */
public final class ReadOptions {
  public static final OptionDef<Boolean> SNAPSHOT =
      OptionDef.flag(
          "snapshot",
          "read a snapshot (the default): a consistent point in time, no load on region servers");
  public static final OptionDef<Boolean> LIVE_SCAN =
      OptionDef.flag("live-scan", "scan the table through its region servers instead");
  public static final OptionDef<Long> BATCH =
      OptionDef.number(
              "batch",
              "CELLS",
              "cells per scan result, so wide rows are read in pieces",
              1,
              1_000_000)
          .withDefault(10_000L);

  private ReadOptions() {}

  /**
   * The read the options ask for, a snapshot unless {@code --live-scan}.
   *
   * @throws InvalidOptionException when both are asked for
   */
  public static ReadMode mode(OptionValues values) {
    if (values.get(SNAPSHOT) && values.get(LIVE_SCAN)) {
      throw new InvalidOptionException(
          "--snapshot and --live-scan are both given; choose one (the snapshot is the default)");
    }
    return values.get(LIVE_SCAN) ? ReadMode.LIVE_SCAN : ReadMode.SNAPSHOT;
  }
}
