package io.rekey.index;

import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.options.SharedOptions;
import io.rekey.options.Times;
import io.rekey.read.ReadOptions;
import io.rekey.run.RunLock;
import io.rekey.run.RunState;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code index build} and {@code index update}: the definition, how to read the source,
 * where run files go, how many rejects to tolerate, and the lock.
 *
 * @param read a live scan through the region servers (the default of an update: its window is
 *     small) or a snapshot (the default of a build)
 * @param until an update indexes cells older than this (epoch millis), or null for now minus the
 *     safety lag
 */
public record IndexRunOptions(
    IndexDefinition definition,
    ReadMode read,
    String staging,
    long maxRejects,
    boolean breakLock,
    Long until,
    Write write,
    boolean createNamespace) {
  /** How entries reach the index table. */
  public enum Write {
    /** Sorted HFiles and a bulk load: for builds and large catch-ups. */
    HFILES,
    /** Puts through a buffered mutator, no shuffle: for the small windows of scheduled updates. */
    PUTS
  }

  public static final OptionDef<Write> WRITE_BUILD =
      OptionDef.choice(
          "write",
          "how entries are written: HFiles and a bulk load, or Puts",
          Write.class,
          Write.HFILES);
  public static final OptionDef<Write> WRITE_UPDATE =
      OptionDef.choice(
          "write",
          "how entries are written: Puts (a small window: no shuffle, no bulk load), or HFiles"
              + " and a bulk load (a long catch-up)",
          Write.class,
          Write.PUTS);

  public static final OptionDef<String> STAGING = SharedOptions.STAGING;
  public static final OptionDef<Long> MAX_REJECTS = SharedOptions.MAX_REJECTS;
  public static final OptionDef<Boolean> BREAK_LOCK = RunLock.BREAK_LOCK;
  public static final OptionDef<String> UNTIL =
      OptionDef.text(
          "until",
          "TIME",
          "index cells older than this (epoch millis or ISO-8601) instead of now minus the safety"
              + " lag; no later than that");

  /** Options of {@code index build}. */
  public static List<OptionDef<?>> declaredForBuild() {
    return declared(WRITE_BUILD);
  }

  /** Options of {@code index update}. */
  public static List<OptionDef<?>> declaredForUpdate() {
    List<OptionDef<?>> out = declared(WRITE_UPDATE);
    out.add(UNTIL);
    return out;
  }

  private static List<OptionDef<?>> declared(OptionDef<Write> write) {
    List<OptionDef<?>> out = new ArrayList<>(IndexDefinition.declaredWithFile());
    out.addAll(
        List.of(
            ReadOptions.SNAPSHOT,
            ReadOptions.LIVE_SCAN,
            STAGING,
            MAX_REJECTS,
            BREAK_LOCK,
            SharedOptions.CREATE_NAMESPACE,
            write));
    return out;
  }

  public static IndexRunOptions forBuild(OptionValues values) {
    return new IndexRunOptions(
        IndexDefinition.from(values),
        ReadOptions.mode(values),
        values.get(STAGING),
        values.get(MAX_REJECTS),
        values.get(BREAK_LOCK),
        null,
        values.get(WRITE_BUILD),
        values.get(SharedOptions.CREATE_NAMESPACE));
  }

  static void checkUntil(String given, long until, long lagMillis, long now) {
    RunState.checkWindowEnd(UNTIL.name(), given, until, lagMillis, now);
  }

  public static IndexRunOptions forUpdate(OptionValues values) {
    ReadOptions.mode(values);
    String until = values.get(UNTIL);
    IndexDefinition definition = IndexDefinition.from(values);
    Long untilMillis = until == null ? null : Times.parse(UNTIL.name(), until);
    if (untilMillis != null) {
      checkUntil(until, untilMillis, definition.safetyLagMillis(), System.currentTimeMillis());
    }
    return new IndexRunOptions(
        definition,
        values.get(ReadOptions.SNAPSHOT) ? ReadMode.SNAPSHOT : ReadMode.LIVE_SCAN,
        values.get(STAGING),
        values.get(MAX_REJECTS),
        values.get(BREAK_LOCK),
        untilMillis,
        values.get(WRITE_UPDATE),
        values.get(SharedOptions.CREATE_NAMESPACE));
  }
}
