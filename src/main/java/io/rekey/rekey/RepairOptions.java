package io.rekey.rekey;

import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import io.rekey.options.SharedOptions;
import io.rekey.options.Times;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code rekey repair}: the migration's own (those of {@code rekey}, so that the copy's
 * job file serves it: {@code --dry-run} to only count, {@code --no-verify} to skip the verify
 * after), and how far back it looks.
 *
 * @param until compare and repair only cells stamped below this (epoch millis), or null for all
 * @param acceptUnmapped how many source rows that cannot be mapped the operator acknowledged, or
 *     null
 */
public record RepairOptions(RekeyOptions rekey, Long until, Long acceptUnmapped) {
  public static final OptionDef<String> UNTIL =
      OptionDef.text(
          "until",
          "TIME",
          "compare and repair only cells stamped below this (epoch millis or ISO-8601), the tables"
              + " as of then: a repair that can run while writes go on");

  /** Every option of {@code rekey repair}: rekey's, then its own. */
  /** Typed options set option by option, validated as a command line's ({@link #from}). */
  public static OptionsBuilder<RepairOptions> builder() {
    return new OptionsBuilder<>(declared(), RepairOptions::from);
  }

  public static List<OptionDef<?>> declared() {
    List<OptionDef<?>> out = new ArrayList<>(RekeyOptions.declared());
    out.add(UNTIL);
    out.add(SharedOptions.ACCEPT_UNMAPPED);
    return out;
  }

  public static RepairOptions from(OptionValues values) {
    String until = values.get(UNTIL);
    return new RepairOptions(
        RekeyOptions.from(values),
        until == null ? null : Times.parse(UNTIL.name(), until),
        values.get(SharedOptions.ACCEPT_UNMAPPED));
  }
}
