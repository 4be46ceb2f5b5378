package io.rekey.cli;

import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.StreamSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code stream stop}: removes a stream's replication peer; edits after that are not re-keyed. With
 * {@code --reverse} (after the switch) it starts the stream the other way instead, so that the
 * table migrated from keeps receiving the migrated table's edits and a rollback is one more switch.
 */
final class StreamStopCommand extends StreamCommand {
  @Override
  public About about() {
    return About.of(
        "stream stop",
        "stop a stream: remove its replication peer, or with --reverse turn it around (no Spark)",
        StreamResult.class);
  }

  @Override
  public Parsing<StreamOptions> parsing() {
    return new Parsing<>(StreamOptions.declaredForStop(), StreamOptions::forStop);
  }

  @Override
  ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception {
    StreamPeer.Status stream = StreamPeer.status(admin, o.peerId());
    if (stream != null && o.reverse()) {
      return reverse(o, stream, source, admin, context);
    }
    boolean removed = StreamPeer.stop(admin, o.peerId());
    StreamResult after = StreamResult.of(o.peerId(), null);
    context.emit(
        removed
            ? "stream stop: removed the replication peer "
                + o.peerId()
                + " ("
                + stream.settings().source()
                + " -> "
                + stream.settings().target()
                + "); edits from now on are not re-keyed\n"
            : after.text("stop"),
        after);
    return removed ? ExitCode.OK : ExitCode.FAILED;
  }

  private static ExitCode reverse(
      StreamOptions o,
      StreamPeer.Status stream,
      Connection source,
      Admin admin,
      CommandContext context)
      throws Exception {
    StreamSettings s = stream.settings();
    String back = StreamOptions.defaultPeerId(s.source());
    try (Connection opened = openTarget(s, context);
        Admin there = (opened != null ? opened : source).getAdmin()) {
      StreamPeer.reverse(
          admin,
          there,
          stream,
          back,
          opened == null ? Map.of() : client(source.getConfiguration()));
      StreamResult result = StreamResult.of(back, StreamPeer.status(there, back));
      context.emit(
          "stream stop: removed the replication peer "
              + o.peerId()
              + " ("
              + s.source()
              + " -> "
              + s.target()
              + ") and started "
              + back
              + ", which carries every edit of "
              + s.target()
              + " back into "
              + s.source()
              + " from now on; to roll back, stop the writers and run 'rekey stream switch"
              + " --target "
              + s.source()
              + "'\n"
              + result.text("stop --reverse"),
          result);
      return ExitCode.OK;
    }
  }

  /** What the target cluster's servers need to reach this cluster. */
  private static Map<String, String> client(Configuration here) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String key :
        new String[] {
          HConstants.ZOOKEEPER_QUORUM,
          HConstants.ZOOKEEPER_CLIENT_PORT,
          HConstants.ZOOKEEPER_ZNODE_PARENT
        }) {
      if (here.get(key) != null) {
        out.put(key, here.get(key));
      }
    }
    return out;
  }
}
