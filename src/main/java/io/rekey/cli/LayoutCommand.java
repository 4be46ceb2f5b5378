package io.rekey.cli;

import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.LayoutException;
import io.rekey.keys.LayoutPreview;
import io.rekey.keys.ScanPlanner;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.SharedOptions;
import io.rekey.options.Times;
import io.rekey.rekey.RekeyOptions;
import io.rekey.report.LayoutResult;
import io.rekey.report.LayoutText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/** {@code layout}: try a key design on real keys, without a cluster. */
final class LayoutCommand implements Command<LayoutCommand.Options> {
  @Override
  public About about() {
    return About.of(
        "layout",
        "try a row-key layout on sample keys: new keys, injectivity, split points, scan ranges",
        LayoutResult.class);
  }

  static final OptionDef<String> SOURCE_KEY = SharedOptions.SOURCE_KEY;
  static final OptionDef<String> TARGET_KEY = SharedOptions.TARGET_KEY;
  static final OptionDef<String> KEY =
      OptionDef.text("key", "OLDKEY", "an old key to map (\\xNN for binary bytes); repeatable")
          .repeatable();
  static final OptionDef<String> COLUMN =
      OptionDef.text("column", "FAM:QUAL=VALUE", "a column value the source spec binds; repeatable")
          .repeatable();
  static final OptionDef<Long> SPLITS =
      OptionDef.number(
          "splits",
          "N",
          "show split points for N regions (default: one per salt bucket; unsalted layouts take"
              + " quantiles of the --key sample)",
          1,
          65_536);
  static final OptionDef<String> SCAN =
      OptionDef.text(
              "scan",
              "FIELD=VALUE|FIELD=FROM..TO",
              "show the key ranges a reader scans for these values (FROM included, TO excluded;"
                  + " times as epoch millis or ISO-8601); repeatable")
          .repeatable();

  /**
   * Options of {@code layout}.
   *
   * @param regions 0 when --splits was not given
   */
  record Options(
      KeyMapping mapping,
      List<byte[]> keys,
      Map<String, byte[]> columns,
      int regions,
      Map<String, FieldValue> equal,
      Map<String, ScanPlanner.NumberRange> ranges) {}

  @Override
  public Parsing<Options> parsing() {
    return new Parsing<>(List.of(SOURCE_KEY, TARGET_KEY, KEY, COLUMN, SPLITS, SCAN), this::read);
  }

  private Options read(OptionValues values) {
    KeyMapping mapping = mapping(values.get(SOURCE_KEY), values.get(TARGET_KEY));
    List<byte[]> keys = new ArrayList<>();
    for (String k : values.getAll(KEY)) {
      keys.add(Bytes.toBytesBinary(k));
    }
    Map<String, byte[]> columns = new LinkedHashMap<>();
    for (String c : values.getAll(COLUMN)) {
      int eq = c.indexOf('=');
      int colon = c.indexOf(':');
      if (eq < 0 || colon < 0 || colon > eq) {
        throw InvalidOptionException.of(COLUMN.name(), c, "must look like family:qualifier=value");
      }
      columns.put(c.substring(0, eq), Bytes.toBytesBinary(c.substring(eq + 1)));
    }
    Map<String, FieldValue> equal = new LinkedHashMap<>();
    Map<String, ScanPlanner.NumberRange> ranges = new LinkedHashMap<>();
    for (String s : values.getAll(SCAN)) {
      int eq = s.indexOf('=');
      if (eq <= 0) {
        throw InvalidOptionException.of(
            SCAN.name(), s, "must look like field=value or field=from..to");
      }
      String field = s.substring(0, eq).trim();
      String value = s.substring(eq + 1);
      try {
        int dots = value.indexOf("..");
        if (dots >= 0) {
          long from = Times.parse(SCAN.name(), value.substring(0, dots));
          long to = Times.parse(SCAN.name(), value.substring(dots + 2));
          if (to <= from) {
            throw InvalidOptionException.of(
                SCAN.name(), s, "has an empty range: TO must be after FROM");
          }
          mapping.parseValue(field, "0");
          ranges.put(field, new ScanPlanner.NumberRange(from, to));
        } else {
          equal.put(field, mapping.parseValue(field, value));
        }
      } catch (LayoutException e) {
        throw InvalidOptionException.of(SCAN.name(), s, e.problemAndColumn());
      }
    }
    Long regions = values.get(SPLITS);
    return new Options(
        mapping, keys, columns, regions == null ? 0 : regions.intValue(), equal, ranges);
  }

  /** Parses both specs; a bad one is a usage error that names its option. */
  static KeyMapping mapping(String sourceSpec, String targetSpec) {
    return RekeyOptions.mapping(sourceSpec, targetSpec);
  }

  @Override
  public ExitCode run(Options o, CommandContext context) {
    LayoutPreview preview;
    try {
      preview =
          LayoutPreview.of(o.mapping(), o.keys(), o.columns(), o.regions(), o.equal(), o.ranges());
    } catch (LayoutException e) {
      throw new io.rekey.common.RekeyException("layout: " + e.getMessage());
    }
    context.emit(LayoutText.render(preview), new LayoutResult(preview));
    return ExitCode.OK;
  }
}
