package io.rekey.verify;

import io.rekey.hbase.ReadOptions;
import io.rekey.hbase.TableInspector;
import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.Times;
import io.rekey.rekey.RekeyOptions;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code verify}.
 *
 * @param liveScan read the source through its region servers instead of from a snapshot
 * @param raw compare raw: delete markers and the cells they hide count too
 * @param until compare only cells with timestamps below this (epoch millis), or null for all
 */
public record VerifyOptions(
    TableName source,
    TableName target,
    KeyMapping mapping,
    boolean liveScan,
    int batch,
    boolean raw,
    Long until) {
  public static final OptionDef<String> UNTIL =
      OptionDef.text(
          "until",
          "TIME",
          "compare only cells with timestamps below this (epoch millis or ISO-8601), on both"
              + " sides: a check that can run while writes go on");

  /** Every option of {@code verify}: rekey's table, key and read options. */
  public static List<OptionDef<?>> declared() {
    return List.of(
        RekeyOptions.SOURCE,
        RekeyOptions.TARGET,
        RekeyOptions.SOURCE_KEY,
        RekeyOptions.TARGET_KEY,
        RekeyOptions.SNAPSHOT,
        RekeyOptions.LIVE_SCAN,
        RekeyOptions.BATCH,
        RekeyOptions.RAW,
        UNTIL);
  }

  public static VerifyOptions from(OptionValues values) {
    boolean liveScan = ReadOptions.liveScan(values);
    return new VerifyOptions(
        TableInspector.tableName(RekeyOptions.SOURCE.name(), values.get(RekeyOptions.SOURCE)),
        TableInspector.tableName(RekeyOptions.TARGET.name(), values.get(RekeyOptions.TARGET)),
        RekeyOptions.mapping(
            values.get(RekeyOptions.SOURCE_KEY), values.get(RekeyOptions.TARGET_KEY)),
        liveScan,
        values.get(RekeyOptions.BATCH).intValue(),
        values.get(RekeyOptions.RAW),
        values.get(UNTIL) == null ? null : Times.parse(UNTIL.name(), values.get(UNTIL)));
  }
}
