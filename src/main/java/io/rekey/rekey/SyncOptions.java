package io.rekey.rekey;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import io.rekey.options.SharedOptions;
import io.rekey.options.Times;
import io.rekey.run.RunState;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code rekey sync}: the migration's own options (those of {@code rekey}, so that one
 * job file serves the copy and every sync), and how far and how this sync goes.
 *
 * @param rekey the migration: source, target, key specs, staging, lock, safety lag
 * @param finalRun the last sync: one window up to {@code end}, then a verify of the cells below it
 * @param repair with {@code finalRun}: when the verify finds differences, repair them ({@code rekey
 *     repair} as of {@code end}) and verify again
 * @param end where the last window ends (epoch millis), or null for now minus the safety lag
 * @param write how the windows' cells reach the target
 * @param maxWindowMillis a longer stretch is cut into windows of at most this
 * @param acceptUnmapped with {@code finalRun}: how many source rows that cannot be mapped the
 *     operator acknowledged, or null
 */
public record SyncOptions(
    RekeyOptions rekey,
    boolean finalRun,
    boolean repair,
    Long end,
    Write write,
    long maxWindowMillis,
    Long acceptUnmapped) {
  /** How a window's cells reach the target. */
  public enum Write {
    /** Puts for a window of at most {@link SyncJob#AUTO_PUT_CELLS} cells, else HFiles. */
    AUTO,
    /** Puts and Deletes through a buffered mutator: no shuffle, no bulk load. */
    PUTS,
    /** Sorted HFiles and a bulk load, with the write engine's ledger and stored-cell check. */
    HFILES
  }

  public static final OptionDef<Boolean> FINAL =
      OptionDef.flag(
          "final",
          "the last sync, once writers are stopped: copy up to --writes-stopped-at, then verify"
              + " every cell below it");
  public static final OptionDef<Boolean> REPAIR =
      OptionDef.flag(
          "repair",
          "with --final: when the verify finds differences (writes stamped in a window's past,"
              + " deletes a compaction purged), repair the differing rows and verify again");
  public static final OptionDef<String> WRITES_STOPPED_AT =
      OptionDef.text(
          "writes-stopped-at",
          "TIME",
          "with --final: when writers were stopped (epoch millis or ISO-8601; default now minus"
              + " the safety lag, which is also the latest allowed)");
  public static final OptionDef<String> UNTIL =
      OptionDef.text(
          "until",
          "TIME",
          "copy cells older than this (epoch millis or ISO-8601) instead of now minus the safety"
              + " lag; no later than that");
  public static final OptionDef<Write> WRITE =
      OptionDef.choice(
          "write",
          "how cells are written: Puts and Deletes for a small window, HFiles and a bulk load for"
              + " a large one, or auto (Puts up to "
              + SyncJob.AUTO_PUT_CELLS
              + " cells)",
          Write.class,
          Write.AUTO);
  public static final OptionDef<Long> MAX_WINDOW =
      OptionDef.number(
              "max-window",
              "SECONDS",
              "a sync that fell further behind catches up in windows of at most this many seconds",
              1,
              366L * 24 * 3600)
          .withDefault(3600L);

  /** Every option of {@code rekey sync}: rekey's, then its own. */
  /** Typed options set option by option, validated as a command line's ({@link #from}). */
  public static OptionsBuilder<SyncOptions> builder() {
    return new OptionsBuilder<>(declared(), SyncOptions::from);
  }

  public static List<OptionDef<?>> declared() {
    List<OptionDef<?>> out = new ArrayList<>(RekeyOptions.declared());
    out.addAll(
        List.of(
            FINAL,
            REPAIR,
            WRITES_STOPPED_AT,
            UNTIL,
            WRITE,
            MAX_WINDOW,
            SharedOptions.ACCEPT_UNMAPPED));
    return out;
  }

  /** Builds and checks the options; a window end past now minus the lag is refused. */
  public static SyncOptions from(OptionValues values) {
    RekeyOptions rekey = RekeyOptions.from(values);
    boolean last = values.get(FINAL);
    String stopped = values.get(WRITES_STOPPED_AT);
    String until = values.get(UNTIL);
    if (stopped != null && !last) {
      throw InvalidOptionException.of(
          WRITES_STOPPED_AT.name(),
          stopped,
          "only goes with --final (the last sync, once writers are stopped); use --until to end"
              + " an ordinary sync early");
    }
    if (values.get(REPAIR) && !last) {
      throw InvalidOptionException.of(
          REPAIR.name(),
          "true",
          "only goes with --final (a repair during the migration is 'rekey repair')");
    }
    Long accept = values.get(SharedOptions.ACCEPT_UNMAPPED);
    if (accept != null && !last) {
      throw InvalidOptionException.of(
          SharedOptions.ACCEPT_UNMAPPED.name(),
          String.valueOf(accept),
          "only goes with --final (the switch is where unmapped rows are acknowledged)");
    }
    if (until != null && last) {
      throw InvalidOptionException.of(
          UNTIL.name(),
          until,
          "does not go with --final; give the time writers stopped as --writes-stopped-at");
    }
    OptionDef<String> endOption = last ? WRITES_STOPPED_AT : UNTIL;
    String given = last ? stopped : until;
    Long end = null;
    if (given != null) {
      end = Times.parse(endOption.name(), given);
      RunState.checkWindowEnd(
          endOption.name(), given, end, rekey.safetyLagMillis(), System.currentTimeMillis());
    }
    return new SyncOptions(
        rekey,
        last,
        values.get(REPAIR),
        end,
        values.get(WRITE),
        values.get(MAX_WINDOW) * 1000,
        accept);
  }
}
