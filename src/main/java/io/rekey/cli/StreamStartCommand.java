package io.rekey.cli;

import io.rekey.hbase.HBaseConnections;
import io.rekey.stream.StreamPeer;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code stream start}: adds the replication peer whose endpoint ({@link
 * io.rekey.stream.RekeyingEndpoint}) re-keys every WAL edit of the source written from then on into
 * the target. The endpoint's jar must be on every master's and region server's classpath.
 */
final class StreamStartCommand implements Command<StreamOptions> {
  @Override
  public About about() {
    return About.of(
        "stream start",
        "re-key every WAL edit of the source into the target from now on (a replication peer)",
        StreamResult.class);
  }

  @Override
  public Parsing<StreamOptions> parsing() {
    return new Parsing<>(StreamOptions.declaredForStart(), StreamOptions::forStart);
  }

  @Override
  public ExitCode run(StreamOptions o, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase());
        Admin admin = connection.getAdmin()) {
      StreamPeer.start(admin, o.peerId(), o.settings());
      StreamResult result = StreamResult.of(o.peerId(), StreamPeer.status(admin, o.peerId()));
      context.emit(result.text("start"), result);
      return ExitCode.OK;
    }
  }
}
