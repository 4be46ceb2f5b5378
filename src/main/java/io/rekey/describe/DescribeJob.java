package io.rekey.describe;

import io.rekey.schema.DesignRules;
import io.rekey.schema.TableDescription;
import io.rekey.schema.TableInspector;
import org.apache.hadoop.hbase.client.Connection;

/** Describes a table and runs the design checks on it. Reads metadata only: no Spark, no scan. */
public final class DescribeJob {
  private final Connection connection;
  private final DescribeOptions options;

  public DescribeJob(Connection connection, DescribeOptions options) {
    this.connection = connection;
    this.options = options;
  }

  public DescribeResult execute() {
    TableDescription table = new TableInspector(connection).describe(options.table());
    return new DescribeResult(table, DesignRules.check(table));
  }
}
