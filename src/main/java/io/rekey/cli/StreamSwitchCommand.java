package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.common.RekeyException;
import io.rekey.stream.StreamPeer;
import io.rekey.stream.StreamSwitch;
import io.rekey.stream.StreamSwitchResult;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code stream switch}: after the writers stopped, proves with fences that the stream carried
 * every edit into the target ({@link StreamSwitch}) and prints the one "switch" line, or why not.
 */
final class StreamSwitchCommand extends StreamCommand {
  @Override
  public About about() {
    return About.of(
            "stream switch",
            "after the writers stopped: prove the stream drained into the target, say when to"
                + " switch (no Spark)",
            StreamSwitchResult.class)
        .alsoExits(ExitCode.FINDINGS);
  }

  @Override
  public Parsing<StreamOptions> parsing() {
    return new Parsing<>(StreamOptions.declaredForSwitch(), StreamOptions::forSwitch);
  }

  @Override
  ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception {
    StreamPeer.Status stream = StreamPeer.status(admin, o.peerId());
    if (stream == null) {
      throw new RekeyException(
          "there is no stream (replication peer) '"
              + o.peerId()
              + "' on this cluster, so nothing carried the writes into the target; do not switch"
              + " (start one with 'rekey stream start', or name it with --peer-id)");
    }
    StreamSwitchResult result;
    try (Connection opened = openTarget(stream.settings(), context)) {
      result = StreamSwitch.run(source, opened != null ? opened : source, stream, o.switching());
    }
    context.emit(result.text(), result);
    if (!result.switchNow()) {
      throw new FindingsFound(result.refusal());
    }
    return ExitCode.OK;
  }
}
