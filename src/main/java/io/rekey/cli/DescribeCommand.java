package io.rekey.cli;

import io.rekey.describe.DescribeJob;
import io.rekey.describe.DescribeOptions;
import io.rekey.describe.DescribeResult;
import io.rekey.hbase.HBaseConnections;
import io.rekey.report.DescribeText;
import org.apache.hadoop.hbase.client.Connection;

/** {@code describe}: a table's families, regions and design checks. */
final class DescribeCommand implements Command<DescribeOptions> {
  @Override
  public About about() {
    return About.of(
        "describe",
        "show a table's families, regions and the schema design checks (no Spark needed)",
        DescribeResult.class);
  }

  @Override
  public Parsing<DescribeOptions> parsing() {
    return new Parsing<>(DescribeOptions.declared(), DescribeOptions::from);
  }

  @Override
  public ExitCode run(DescribeOptions options, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      DescribeResult result = new DescribeJob(connection, options).execute();
      context.emit(DescribeText.render(result), result);
    }
    return ExitCode.OK;
  }
}
