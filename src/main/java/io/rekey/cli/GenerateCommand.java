package io.rekey.cli;

import io.rekey.generate.GenerateJob;
import io.rekey.generate.GenerateOptions;
import io.rekey.generate.GenerateResult;
import io.rekey.hbase.HBaseConnections;
import io.rekey.report.GenerateText;
import io.rekey.security.Grant;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;

/** {@code generate}: a sample messages table with a time-first row key. */
final class GenerateCommand implements Command<GenerateOptions> {
  @Override
  public About about() {
    return About.of(
        "generate",
        "write a sample messages table with a time-first (hotspotting) row key",
        GenerateResult.class);
  }

  @Override
  public List<Grant> grants(GenerateOptions o) {
    return List.of(Grant.create(o.table(), ""), Grant.describe(o.table()), Grant.write(o.table()));
  }

  @Override
  public Parsing<GenerateOptions> parsing() {
    return new Parsing<>(GenerateOptions.declared(), GenerateOptions::from);
  }

  @Override
  public ExitCode run(GenerateOptions options, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      GenerateResult result = new GenerateJob(connection, options).execute();
      context.emit(GenerateText.render(result), result);
    }
    return ExitCode.OK;
  }
}
