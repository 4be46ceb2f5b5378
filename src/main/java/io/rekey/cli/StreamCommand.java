package io.rekey.cli;

import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.security.Grant;
import io.rekey.stream.endpoint.StreamSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What the {@code stream} commands share: they name a stream by its target (or peer id), need no
 * Spark, and act through the source cluster's {@link Admin}.
 */
abstract class StreamCommand implements Command<StreamOptions> {
  /** What every stream command needs: HBase asks global ADMIN for any replication peer call. */
  static final Grant PEER_ADMIN = Grant.clusterAdmin("to manage the stream's replication peer");

  @Override
  public Parsing<StreamOptions> parsing() {
    return new Parsing<>(StreamOptions.declaredForPeer(), StreamOptions::forPeer);
  }

  @Override
  public List<Grant> grants(StreamOptions o) {
    return List.of(PEER_ADMIN);
  }

  @Override
  public final ExitCode run(StreamOptions o, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase());
        Admin admin = connection.getAdmin()) {
      return run(o, connection, admin, context);
    }
  }

  abstract ExitCode run(StreamOptions o, Connection source, Admin admin, CommandContext context)
      throws Exception;

  /**
   * A connection to the stream's target cluster, to be closed by the caller; null when the target
   * is on the source's cluster (use the source's connection then).
   */
  static Connection openTarget(StreamSettings s, CommandContext context) {
    if (s.targetClient().isEmpty()) {
      return null;
    }
    HBaseSettings source = context.hbase();
    Map<String, String> properties = new LinkedHashMap<>(source.properties());
    properties.putAll(s.targetClient());
    return HBaseConnections.open(
        new HBaseSettings(
            s.targetClient().getOrDefault("hbase.zookeeper.quorum", source.zkQuorum()),
            source.confDir(),
            properties));
  }
}
