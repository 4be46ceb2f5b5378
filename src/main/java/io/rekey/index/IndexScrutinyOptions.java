package io.rekey.index;

import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.read.ReadOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code index scrutiny}.
 *
 * @param samples examples shown per kind of finding
 */
public record IndexScrutinyOptions(
    IndexDefinition definition,
    ReadMode read,
    String staging,
    boolean repair,
    int samples,
    boolean breakLock,
    boolean failOnForeign) {
  public static final OptionDef<Boolean> REPAIR =
      OptionDef.flag(
          "repair",
          "write the missing and stale entries and delete the invalid and orphan ones (foreign"
              + " rows are left alone)");
  public static final OptionDef<Boolean> FAIL_ON_FOREIGN =
      OptionDef.flag(
          "fail-on-foreign",
          "exit 4 when the index table holds rows that are no entries of this index");
  public static final OptionDef<Long> SAMPLES =
      OptionDef.number("samples", "N", "examples shown per kind of finding", 0, 1000)
          .withDefault(10L);

  public static List<OptionDef<?>> declared() {
    List<OptionDef<?>> out = new ArrayList<>(IndexDefinition.declaredWithFile());
    out.addAll(
        List.of(
            ReadOptions.SNAPSHOT,
            ReadOptions.LIVE_SCAN,
            IndexRunOptions.STAGING,
            REPAIR,
            SAMPLES,
            FAIL_ON_FOREIGN,
            IndexRunOptions.BREAK_LOCK));
    return out;
  }

  public static IndexScrutinyOptions from(OptionValues values) {
    return new IndexScrutinyOptions(
        IndexDefinition.from(values),
        ReadOptions.mode(values),
        values.get(IndexRunOptions.STAGING),
        values.get(REPAIR),
        values.get(SAMPLES).intValue(),
        values.get(IndexRunOptions.BREAK_LOCK),
        values.get(FAIL_ON_FOREIGN));
  }
}
