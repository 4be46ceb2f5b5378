package io.rekey.cli;

import io.rekey.hbase.HBaseConnections;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What the {@code stream} commands share: they name a stream by its target (or peer id), need no
 * Spark, and act through the source cluster's {@link Admin}.
 */
abstract class StreamCommand implements Command<StreamOptions> {
  @Override
  public Parsing<StreamOptions> parsing() {
    return new Parsing<>(StreamOptions.declaredForPeer(), StreamOptions::forPeer);
  }

  @Override
  public final ExitCode run(StreamOptions o, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase());
        Admin admin = connection.getAdmin()) {
      return run(o, admin, context);
    }
  }

  abstract ExitCode run(StreamOptions o, Admin admin, CommandContext context) throws Exception;
}
