package io.rekey.read;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import java.util.Map;

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
      OptionDef.flag(
          "live-scan",
          "scan through the region servers instead (both tables, where a job compares two)");
  public static final OptionDef<Long> TARGET_SNAPSHOT_MIB =
      OptionDef.number(
              "target-snapshot-mib",
              "MIB",
              "a compared target this size or larger is read through a snapshot of its own, a"
                  + " smaller one live (a snapshot costs seconds at any size); 0: every target",
              0,
              1L << 30)
          .withDefault(TableRead.DEFAULT_COMPARED_SNAPSHOT_MIN_BYTES >> 20);
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
   * The settings that carry {@link #TARGET_SNAPSHOT_MIB} to the jobs that compare a target ({@link
   * TableRead#openCompared}).
   */
  public static Map<String, String> comparedTargetProperties(OptionValues values) {
    return Map.of(
        TableRead.COMPARED_SNAPSHOT_MIN_BYTES,
        Long.toString(values.get(TARGET_SNAPSHOT_MIB) << 20));
  }

  /** The option that sets the configuration key {@code key}, as {@code --name}, or null. */
  public static String optionFor(String key) {
    return key.equals(TableRead.COMPARED_SNAPSHOT_MIN_BYTES)
        ? "--" + TARGET_SNAPSHOT_MIB.name()
        : null;
  }

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
