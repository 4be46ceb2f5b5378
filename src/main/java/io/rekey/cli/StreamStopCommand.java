package io.rekey.cli;

import io.rekey.stream.StreamPeer;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/** {@code stream stop}: removes a stream's replication peer; edits after that are not re-keyed. */
final class StreamStopCommand extends StreamCommand {
  @Override
  public About about() {
    return About.of(
        "stream stop", "stop a stream: remove its replication peer (no Spark)", StreamResult.class);
  }

  @Override
  ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception {
    StreamResult before = StreamResult.of(o.peerId(), StreamPeer.status(admin, o.peerId()));
    boolean removed = StreamPeer.stop(admin, o.peerId());
    StreamResult after = StreamResult.of(o.peerId(), null);
    context.emit(
        removed
            ? "stream stop: removed the replication peer "
                + o.peerId()
                + " ("
                + before.source()
                + " -> "
                + before.target()
                + "); edits from now on are not re-keyed\n"
            : after.text("stop"),
        after);
    return removed ? ExitCode.OK : ExitCode.FAILED;
  }
}
