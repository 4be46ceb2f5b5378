package io.rekey.describe;

import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.schema.TableInspector;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code describe}.
 *
 * @param table the table to describe
 */
public record DescribeOptions(TableName table) {
  public static final OptionDef<String> TABLE =
      OptionDef.text("table", "NS:TABLE", "the table to describe").required();

  /** Every option of {@code describe}, in usage order. */
  public static List<OptionDef<?>> declared() {
    return List.of(TABLE);
  }

  /** Builds and checks the options from validated values. */
  public static DescribeOptions from(OptionValues values) {
    return new DescribeOptions(TableInspector.tableName(TABLE.name(), values.get(TABLE)));
  }
}
