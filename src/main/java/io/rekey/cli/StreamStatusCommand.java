package io.rekey.cli;

import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.Fences;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/** {@code stream status}: a stream's peer, its settings and HBase's figures for its queues. */
final class StreamStatusCommand extends StreamCommand {
  @Override
  public About about() {
    return About.of(
        "stream status",
        "show a stream's replication peer and HBase's figures for its queues (no Spark)",
        StreamResult.class);
  }

  @Override
  ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception {
    StreamPeer.Status status = StreamPeer.status(admin, o.peerId());
    StreamResult result = StreamResult.of(o.peerId(), status);
    if (status != null) {
      try (Connection opened = openTarget(status.settings(), context)) {
        result =
            StreamResult.of(
                o.peerId(),
                status,
                Fences.refused(
                    opened != null ? opened : source, status.settings().fenceTable(), o.peerId()));
      }
    }
    context.emit(result.text("status"), result);
    return result.exists() ? ExitCode.OK : ExitCode.FAILED;
  }
}
