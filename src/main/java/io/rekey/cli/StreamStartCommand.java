package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.hbase.HBaseConnections;
import io.rekey.index.IndexJob;
import io.rekey.index.IndexRunOptions;
import io.rekey.index.IndexRunResult;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyPlanner;
import io.rekey.rekey.RekeyResult;
import io.rekey.report.IndexText;
import io.rekey.report.RekeyText;
import io.rekey.run.RunState;
import io.rekey.security.Grant;
import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.EditMapper;
import io.rekey.stream.endpoint.StreamSettings;
import io.rekey.verify.MigrationDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code stream start}: adds the replication peer whose endpoint ({@link
 * io.rekey.stream.endpoint.RekeyingEndpoint}) re-keys every WAL edit of the source into the target,
 * disabled; runs the copy (rekey) from a snapshot taken after that; then enables the peer, which
 * ships every edit logged since it was added, so nothing written during the copy is missed,
 * whatever its timestamp. The indexes of the target it is to keep ({@code --index}) are built after
 * the copy, before the peer is enabled. A copy or build that fails removes the peer again. The
 * endpoint's jar must be on every master's and region server's classpath.
 */
final class StreamStartCommand implements Command<StreamStartOptions> {
  @Override
  public About about() {
    return About.of(
            "stream start",
            "copy the source into the target and re-key every WAL edit from before the copy on (a"
                + " replication peer)",
            StreamStartResult.class)
        .alsoExits(ExitCode.BUSY, ExitCode.FINDINGS)
        .throttle()
        .jobFilesOf("rekey");
  }

  @Override
  public List<Grant> grants(StreamStartOptions o) {
    List<Grant> grants = new ArrayList<>(List.of(StreamCommand.PEER_ADMIN));
    if (o.copy() != null) {
      grants.addAll(RekeyCommand.grantsOf(o.copy()));
    }
    for (IndexRunOptions index : o.indexes()) {
      grants.addAll(IndexRunCommand.grantsOf(IndexJob.Kind.BUILD, index));
    }
    return grants;
  }

  @Override
  public Parsing<StreamStartOptions> parsing() {
    return new Parsing<>(StreamStartOptions.declared(), StreamStartOptions::from);
  }

  @Override
  public ExitCode run(StreamStartOptions o, CommandContext context) throws Exception {
    StreamOptions stream = o.stream();
    StreamSettings settings = o.settings();
    boolean keyMap = EditMapper.keyUsesColumns(settings.mapping());
    if (o.copy() == null && !keyMap && o.indexes().isEmpty()) {
      return withoutCopy(o, context);
    }
    return context.runJob(
        about().name(),
        settings.source(),
        settings.target(),
        job -> {
          try (Admin admin = job.connection().getAdmin()) {
            StreamPeer.requireStartable(admin, stream.peerId(), settings);
            // Planned first, so that a copy the planner refuses leaves no peer behind; its snapshot
            // is taken when it runs, after the peer exists.
            RekeyPlanner.Planned planned = o.copy() == null ? null : RekeyJob.plan(job, o.copy());
            if (planned == null) {
              StreamPeer.requireTarget(admin, settings);
              requireSameDefinition(job.connection(), o);
            }
            StreamPeer.add(admin, admin, stream.peerId(), settings, false);
            StreamPeer.limit(admin, stream.peerId(), stream.bandwidth());
            RekeyResult copy = null;
            List<IndexRunResult> built = new ArrayList<>();
            try {
              if (planned != null) {
                copy = new RekeyJob(job, o.copy(), planned).execute();
              }
              if (keyMap) {
                KeyMapSeed.seed(job, settings, stream.peerId());
              }
              // Built from the target while the peer holds every later edit back: each row the
              // stream writes afterwards is indexed again as it is then.
              for (IndexRunOptions index : o.indexes()) {
                built.add(IndexJob.build(job, index).execute());
              }
            } catch (RuntimeException | IOException e) {
              StreamPeer.stop(admin, stream.peerId()); // a stream over no copy is no stream
              throw e;
            }
            StreamPeer.enable(admin, stream.peerId());
            return emit(context, admin, stream.peerId(), copy, built);
          }
        });
  }

  /** The peer alone, enabled, over a target a copy with the same definition wrote. */
  private ExitCode withoutCopy(StreamStartOptions o, CommandContext context) throws Exception {
    StreamSettings s = o.settings();
    try (Connection source = HBaseConnections.open(context.hbase());
        Admin admin = source.getAdmin();
        Connection opened = StreamCommand.openTarget(s, context);
        Admin target = (opened != null ? opened : source).getAdmin()) {
      if (opened == null) {
        requireSameDefinition(source, o);
      }
      StreamPeer.start(admin, target, o.stream().peerId(), s);
      StreamPeer.limit(admin, o.stream().peerId(), o.stream().bandwidth());
      return emit(context, admin, o.stream().peerId(), null, List.of());
    }
  }

  /** Refuses a stream whose definition is not the one its target's copy pinned. */
  private static void requireSameDefinition(Connection source, StreamStartOptions o)
      throws IOException {
    StreamSettings s = o.stream().settings();
    RunState state = new RunState(source, o.stateTable(), s.target());
    if (state.tableExists()) {
      MigrationDefinition.of(s.source(), s.mapping(), null)
          .requireSame(state.pinnedDefinitionIfAny(), s.target().getNameAsString(), "stream start");
    }
  }

  private static ExitCode emit(
      CommandContext context,
      Admin admin,
      String peerId,
      RekeyResult copy,
      List<IndexRunResult> indexes)
      throws Exception {
    StreamStartResult result =
        new StreamStartResult(
            StreamResult.of(peerId, StreamPeer.status(admin, peerId)), copy, indexes);
    StringBuilder text = new StringBuilder(copy == null ? "" : RekeyText.result(copy));
    indexes.forEach(i -> text.append(IndexText.run(i)));
    context.emit(text + result.stream().text("start"), result);
    if (copy != null && copy.verify() != null && !copy.verify().matches()) {
      throw new FindingsFound(
          "the copy's verify found "
              + copy.verify().differingRegions()
              + " target region(s) that differ from the source (listed above); the stream runs:"
              + " repair those key ranges ('rekey repair')");
    }
    return ExitCode.OK;
  }
}
