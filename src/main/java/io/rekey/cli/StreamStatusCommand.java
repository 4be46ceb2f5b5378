package io.rekey.cli;

import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.WriteRate;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code stream status}: a stream's peer, its settings, HBase's figures for its queues, what its
 * endpoint wrote into the target and how fast, and the rows it refused.
 */
final class StreamStatusCommand extends StreamCommand {
  @Override
  public About about() {
    return About.of(
        "stream status",
        "show a stream's replication peer, HBase's figures for its queues and its target writes",
        StreamResult.class);
  }

  @Override
  ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception {
    StreamPeer.Status status = StreamPeer.status(admin, o.peerId());
    StreamResult result = StreamResult.of(o.peerId(), status);
    if (status != null) {
      try (Connection opened = openTarget(status.settings(), context)) {
        Connection target = opened != null ? opened : source;
        TableName fences = status.settings().fenceTable();
        result =
            StreamResult.of(
                o.peerId(),
                status,
                Fences.refused(target, fences, o.peerId()),
                WriteRate.read(target, fences, o.peerId()));
      }
    }
    context.emit(result.text("status"), result);
    return result.exists() ? ExitCode.OK : ExitCode.FAILED;
  }
}
