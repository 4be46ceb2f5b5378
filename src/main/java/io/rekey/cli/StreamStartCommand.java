package io.rekey.cli;

import io.rekey.stream.StreamPeer;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code stream start}: adds the replication peer whose endpoint ({@link
 * io.rekey.stream.endpoint.RekeyingEndpoint}) re-keys every WAL edit of the source written from
 * then on into the target. The endpoint's jar must be on every master's and region server's
 * classpath.
 */
final class StreamStartCommand extends StreamCommand {
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
  ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception {
    try (Connection opened = openTarget(o.settings(), context);
        Admin target = (opened != null ? opened : source).getAdmin()) {
      StreamPeer.start(admin, target, o.peerId(), o.settings());
    }
    StreamResult result = StreamResult.of(o.peerId(), StreamPeer.status(admin, o.peerId()));
    context.emit(result.text("start"), result);
    return ExitCode.OK;
  }
}
