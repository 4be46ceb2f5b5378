package io.rekey.verify;

import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import io.rekey.options.ReadMode;
import io.rekey.options.SharedOptions;
import io.rekey.options.Times;
import io.rekey.read.ReadOptions;
import io.rekey.run.RunLock;
import io.rekey.schema.TableInspector;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code verify}.
 *
 * @param read the source from a snapshot (the default), or a live scan through its region servers
 * @param raw compare raw: delete markers and the cells they hide count too
 * @param until compare only cells with timestamps below this (epoch millis), or null for all
 * @param stateTable where a migration into the target pinned its mapping (checked when it exists)
 * @param acceptUnmapped how many source rows that cannot be mapped the operator acknowledged, or
 *     null
 * @param allowMerge the migration lets a layout that is not injective merge source rows (then two
 *     source rows under one target key are not a finding)
 */
public record VerifyOptions(
    TableName source,
    TableName target,
    KeyMapping mapping,
    ReadMode read,
    int batch,
    boolean raw,
    Long until,
    String stateTable,
    Long acceptUnmapped,
    boolean allowMerge) {
  public static final OptionDef<String> UNTIL =
      OptionDef.text(
          "until",
          "TIME",
          "compare only cells with timestamps below this (epoch millis or ISO-8601), on both"
              + " sides: a check that can run while writes go on");

  /** Every option of {@code verify}: rekey's table, key and read options. */
  /** Typed options set option by option, validated as a command line's ({@link #from}). */
  public static OptionsBuilder<VerifyOptions> builder() {
    return new OptionsBuilder<>(declared(), VerifyOptions::from);
  }

  public static List<OptionDef<?>> declared() {
    return List.of(
        SharedOptions.SOURCE,
        SharedOptions.TARGET,
        SharedOptions.SOURCE_KEY,
        SharedOptions.TARGET_KEY,
        ReadOptions.SNAPSHOT,
        ReadOptions.LIVE_SCAN,
        ReadOptions.TARGET_SNAPSHOT_MIB,
        ReadOptions.BATCH,
        SharedOptions.RAW,
        UNTIL,
        RunLock.STATE_TABLE,
        SharedOptions.ACCEPT_UNMAPPED,
        SharedOptions.ALLOW_MERGE);
  }

  public static VerifyOptions from(OptionValues values) {
    ReadMode read = ReadOptions.mode(values);
    return new VerifyOptions(
        TableInspector.tableName(SharedOptions.SOURCE.name(), values.get(SharedOptions.SOURCE)),
        TableInspector.tableName(SharedOptions.TARGET.name(), values.get(SharedOptions.TARGET)),
        SharedOptions.mapping(
            values.get(SharedOptions.SOURCE_KEY), values.get(SharedOptions.TARGET_KEY)),
        read,
        values.get(ReadOptions.BATCH).intValue(),
        values.get(SharedOptions.RAW),
        values.get(UNTIL) == null ? null : Times.parse(UNTIL.name(), values.get(UNTIL)),
        values.get(RunLock.STATE_TABLE),
        values.get(SharedOptions.ACCEPT_UNMAPPED),
        values.get(SharedOptions.ALLOW_MERGE));
  }
}
