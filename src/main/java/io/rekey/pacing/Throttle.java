package io.rekey.pacing;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * How hard a job may press on region servers that are serving users, declared once for every
 * command that writes or scans through them. The values travel in the job's Hadoop configuration
 * ({@code rekey.throttle.*}), so the driver's bulk load and the executors' Puts and live scans read
 * the same ones.
 *
 * <p>The rates are per task, as DistCp's {@code -bandwidth} is per map: a job sends at most the
 * rate times the tasks it runs at once. Zero means no limit; the defaults are for an idle cluster.
 *
 * @param writeRate cells per second one writer task may send as Puts and Deletes (0: no limit)
 * @param scanRate rows per second one live-scan task may read (0: no limit)
 * @param loadRegions regions one bulk-load batch fills at once (0: all of them in one batch)
 * @param loadPauseMillis pause between two bulk-load batches
 * @param loadPerFamily one family per bulk-load batch, so a region's write lock is held for one
 *     family's files at a time
 * @param storeFileWaitSeconds how long a bulk load waits for compactions before it stops, when a
 *     region has no room left below {@code hbase.hstore.blockingStoreFiles}
 */
public record Throttle(
    long writeRate,
    long scanRate,
    int loadRegions,
    long loadPauseMillis,
    boolean loadPerFamily,
    long storeFileWaitSeconds) {
  /** No limits: the defaults, for an idle cluster. */
  public static final Throttle NONE = new Throttle(0, 0, 0, 0, false, 600);

  /** The {@code --gentle} preset. */
  public static final Throttle GENTLE_PRESET = new Throttle(1000, 5000, 1, 1000, true, 600);

  public static final OptionDef<Long> WRITE_RATE =
      OptionDef.number(
              "write-rate",
              "CELLS",
              "cells per second each writer task may send as Puts and Deletes (sync, index update"
                  + " and repair with Puts); costs job time when the job writes more than this;"
                  + " 0 for no limit",
              0,
              Long.MAX_VALUE)
          .withDefault(0L);
  public static final OptionDef<Long> SCAN_RATE =
      OptionDef.number(
              "scan-rate",
              "ROWS",
              "rows per second each live-scan task may read (--live-scan, sync, index update,"
                  + " verify); a scan of N rows then takes N / (rate x tasks) seconds at least; 0"
                  + " for no limit",
              0,
              Long.MAX_VALUE)
          .withDefault(0L);
  public static final OptionDef<Long> LOAD_REGIONS =
      OptionDef.number(
              "load-regions",
              "N",
              "regions a bulk load fills at once, in batches; fewer is gentler and slower on many"
                  + " regions; 0 for all at once (HBase's 16 threads)",
              0,
              10_000)
          .withDefault(0L);
  public static final OptionDef<Double> LOAD_PAUSE =
      OptionDef.decimal(
              "load-pause",
              "SECONDS",
              "pause between bulk-load batches, so the region servers' compactions and clients"
                  + " catch up; adds the pause once per batch",
              Double.NEGATIVE_INFINITY,
              3600)
          .validatedBy(
              (o, raw, v) -> {
                if (v < 0) {
                  throw InvalidOptionException.of(o, raw, "must be 0 or more seconds");
                }
              })
          .withDefault(0.0);
  public static final OptionDef<Boolean> LOAD_PER_FAMILY =
      OptionDef.flag(
          "load-per-family",
          "bulk-load one column family at a time: a region takes its write lock for one family's"
              + " files, not all of them (more batches on tables of several families)");
  public static final OptionDef<Long> STORE_FILE_WAIT =
      OptionDef.number(
              "store-file-wait",
              "SECONDS",
              "how long a bulk load waits for compactions when a region has no room left below"
                  + " hbase.hstore.blockingStoreFiles, before it stops (what is loaded stays"
                  + " loaded; the same command loads the rest)",
              0,
              7L * 24 * 3600)
          .withDefault(600L);
  public static final OptionDef<Boolean> GENTLE =
      OptionDef.flag(
          "gentle",
          "settings for a cluster that is serving users: "
              + GENTLE_PRESET.asOptions()
              + "; options given as well win");

  static final String PREFIX = "rekey.throttle.";

  public Throttle {
    if (writeRate < 0 || scanRate < 0 || loadRegions < 0 || loadPauseMillis < 0) {
      throw new IllegalArgumentException("negative throttle " + this);
    }
  }

  /** The options, in the order the usage lists them. */
  public static List<OptionDef<?>> declared() {
    return List.of(
        GENTLE, WRITE_RATE, SCAN_RATE, LOAD_REGIONS, LOAD_PAUSE, LOAD_PER_FAMILY, STORE_FILE_WAIT);
  }

  /** The throttle the options ask for: the preset when {@code --gentle}, each given option over. */
  public static Throttle from(OptionValues values) {
    Throttle base = values.get(GENTLE) ? GENTLE_PRESET : NONE;
    return new Throttle(
        values.isSet(WRITE_RATE) ? values.get(WRITE_RATE) : base.writeRate,
        values.isSet(SCAN_RATE) ? values.get(SCAN_RATE) : base.scanRate,
        values.isSet(LOAD_REGIONS) ? values.get(LOAD_REGIONS).intValue() : base.loadRegions,
        values.isSet(LOAD_PAUSE) ? Math.round(values.get(LOAD_PAUSE) * 1000) : base.loadPauseMillis,
        values.isSet(LOAD_PER_FAMILY) ? values.get(LOAD_PER_FAMILY) : base.loadPerFamily,
        values.isSet(STORE_FILE_WAIT) ? values.get(STORE_FILE_WAIT) : base.storeFileWaitSeconds);
  }

  /** The settings that carry this throttle in a Hadoop configuration. */
  public Map<String, String> properties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(PREFIX + "write-rate", Long.toString(writeRate));
    p.put(PREFIX + "scan-rate", Long.toString(scanRate));
    p.put(PREFIX + "load-regions", Integer.toString(loadRegions));
    p.put(PREFIX + "load-pause-ms", Long.toString(loadPauseMillis));
    p.put(PREFIX + "load-per-family", Boolean.toString(loadPerFamily));
    p.put(PREFIX + "store-file-wait-s", Long.toString(storeFileWaitSeconds));
    return p;
  }

  /**
   * The option that sets the configuration key {@code key} of a throttle, as {@code --name}, or
   * null when {@code key} is not one.
   */
  public static String optionFor(String key) {
    if (!key.startsWith(PREFIX)) {
      return null;
    }
    return switch (key.substring(PREFIX.length())) {
      case "write-rate" -> "--" + WRITE_RATE.name();
      case "scan-rate" -> "--" + SCAN_RATE.name();
      case "load-regions" -> "--" + LOAD_REGIONS.name();
      case "load-pause-ms" -> "--" + LOAD_PAUSE.name();
      case "load-per-family" -> "--" + LOAD_PER_FAMILY.name();
      case "store-file-wait-s" -> "--" + STORE_FILE_WAIT.name();
      default -> null;
    };
  }

  /** The throttle a configuration carries ({@link #NONE} for what it does not set). */
  public static Throttle of(Configuration conf) {
    return new Throttle(
        conf.getLong(PREFIX + "write-rate", NONE.writeRate),
        conf.getLong(PREFIX + "scan-rate", NONE.scanRate),
        conf.getInt(PREFIX + "load-regions", NONE.loadRegions),
        conf.getLong(PREFIX + "load-pause-ms", NONE.loadPauseMillis),
        conf.getBoolean(PREFIX + "load-per-family", NONE.loadPerFamily),
        conf.getLong(PREFIX + "store-file-wait-s", NONE.storeFileWaitSeconds));
  }

  /** The options that set this throttle, as a command line would give them. */
  public String asOptions() {
    StringBuilder s = new StringBuilder();
    s.append("--write-rate ").append(writeRate);
    s.append(" --scan-rate ").append(scanRate);
    s.append(" --load-regions ").append(loadRegions);
    s.append(" --load-pause ")
        .append(
            java.math.BigDecimal.valueOf(loadPauseMillis, 3).stripTrailingZeros().toPlainString());
    if (loadPerFamily) {
      s.append(" --load-per-family");
    }
    if (storeFileWaitSeconds != NONE.storeFileWaitSeconds) {
      s.append(" --store-file-wait ").append(storeFileWaitSeconds);
    }
    return s.toString();
  }

  /** One line for the log: what is limited. */
  public String describe() {
    if (equals(NONE)) {
      return "no throttles";
    }
    return String.format(
        "throttles: write-rate %s, scan-rate %s, load-regions %s, load-pause %.1f s%s,"
            + " store-file-wait %d s",
        writeRate == 0 ? "none" : writeRate + " cells/s per task",
        scanRate == 0 ? "none" : scanRate + " rows/s per task",
        loadRegions == 0 ? "all" : Integer.toString(loadRegions),
        loadPauseMillis / 1000.0,
        loadPerFamily ? ", per family" : "",
        storeFileWaitSeconds);
  }
}
