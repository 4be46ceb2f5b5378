package io.rekey.generate;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.schema.TableInspector;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code generate}.
 *
 * @param table where to write; created when missing
 * @param rows how many message rows
 * @param seed the same seed gives the same rows
 * @param senders how many distinct senders
 * @param startMillis the first message's time
 * @param multiVersionPercent the share of rows with 2–3 versions of {@code m:read}
 * @param ifNonEmpty what to do when the table already holds rows
 * @param intervalMillis the mean time between two messages
 * @param deleteRows rows of the table to delete after writing (the first in key order), stamped now
 */
public record GenerateOptions(
    TableName table,
    long rows,
    long seed,
    int senders,
    long startMillis,
    int multiVersionPercent,
    IfNonEmpty ifNonEmpty,
    int intervalMillis,
    long deleteRows) {
  /** What {@code generate} does with a table that already holds rows. */
  public enum IfNonEmpty {
    /** Stop with an error: the default, so data sets are never mixed by accident. */
    FAIL,
    /** Write nothing and say so: for scripts that may run twice, like the demo. */
    SKIP,
    /** Write the rows next to what is there. */
    APPEND
  }

  public static final OptionDef<String> TABLE =
      OptionDef.text("table", "NS:TABLE", "the messages table to fill (created when missing)")
          .required();
  public static final OptionDef<Long> ROWS =
      OptionDef.number("rows", "N", "how many message rows to write", 1, 1_000_000_000L)
          .withDefault(10_000L);
  public static final OptionDef<Long> SEED =
      OptionDef.number(
              "seed", "N", "random seed: the same seed writes the same rows", 0, Long.MAX_VALUE)
          .withDefault(42L);
  public static final OptionDef<Long> SENDERS =
      OptionDef.number(
              "senders", "N", "distinct senders, drawn Zipf-like so a few send most", 1, 1_000_000)
          .withDefault(1_000L);
  public static final OptionDef<String> START_TIME =
      OptionDef.text(
              "start-time",
              "INSTANT",
              "time of the first message, ISO-8601 (2026-01-01T00:00:00Z), epoch millis, or now")
          .withDefault("2026-01-01T00:00:00Z");
  public static final OptionDef<Long> MULTI_VERSION_PERCENT =
      OptionDef.number(
              "multi-version-percent", "P", "percent of rows with 2-3 versions of m:read", 0, 100)
          .withDefault(10L);
  public static final OptionDef<IfNonEmpty> IF_NONEMPTY =
      OptionDef.choice(
          "if-nonempty",
          "when the table already holds rows: fail, skip (write nothing) or append",
          IfNonEmpty.class,
          IfNonEmpty.FAIL);

  public static final OptionDef<Long> INTERVAL_MILLIS =
      OptionDef.number("interval-millis", "MS", "mean time between two messages", 1, 86_400_000)
          .withDefault(1000L);
  public static final OptionDef<Long> DELETE_ROWS =
      OptionDef.number(
              "delete-rows",
              "N",
              "then delete the table's first N messages (whole rows, stamped now), as a live"
                  + " table sees deletes: changes for 'rekey sync' to carry",
              0,
              1_000_000_000L)
          .withDefault(0L);

  /** Every option of {@code generate}, in usage order. */
  public static List<OptionDef<?>> declared() {
    return List.of(
        TABLE,
        ROWS,
        SEED,
        SENDERS,
        START_TIME,
        MULTI_VERSION_PERCENT,
        IF_NONEMPTY,
        INTERVAL_MILLIS,
        DELETE_ROWS);
  }

  /** Builds and checks the options from validated values. */
  public static GenerateOptions from(OptionValues values) {
    return new GenerateOptions(
        TableInspector.tableName(TABLE.name(), values.get(TABLE)),
        values.get(ROWS),
        values.get(SEED),
        values.get(SENDERS).intValue(),
        parseInstant(values.get(START_TIME)),
        values.get(MULTI_VERSION_PERCENT).intValue(),
        values.get(IF_NONEMPTY),
        values.get(INTERVAL_MILLIS).intValue(),
        values.get(DELETE_ROWS));
  }

  private static long parseInstant(String raw) {
    String text = raw.trim();
    if (text.equals("now")) {
      return System.currentTimeMillis();
    }
    if (text.matches("\\d{1,15}")) {
      return Long.parseLong(text);
    }
    try {
      return Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw InvalidOptionException.of(
          START_TIME.name(),
          raw,
          "is neither an ISO-8601 instant (2026-01-01T00:00:00Z) nor epoch milliseconds");
    }
  }
}
