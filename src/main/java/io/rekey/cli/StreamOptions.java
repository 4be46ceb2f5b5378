package io.rekey.cli;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.SharedOptions;
import io.rekey.schema.TableInspector;
import io.rekey.stream.StreamSettings;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code stream start}, {@code stream status} and {@code stream stop}: which stream (its
 * replication peer, named after the target unless given) and, to start one, what it re-keys.
 *
 * @param peerId the replication peer of the stream
 * @param settings what a started stream re-keys; null for status and stop
 */
record StreamOptions(String peerId, StreamSettings settings) {
  static final OptionDef<String> PEER_ID =
      OptionDef.text(
          "peer-id",
          "ID",
          "the stream's replication peer (default: rekey_ and the target, ':' as '_')");
  static final OptionDef<String> TARGET_ZK =
      OptionDef.text(
          "target-zk",
          "HOST:PORT,…",
          "the ZooKeeper quorum of the target's cluster, when it is not the source's");

  static List<OptionDef<?>> declaredForStart() {
    return List.of(
        SharedOptions.SOURCE,
        SharedOptions.TARGET,
        SharedOptions.SOURCE_KEY,
        SharedOptions.TARGET_KEY,
        PEER_ID,
        TARGET_ZK);
  }

  static List<OptionDef<?>> declaredForPeer() {
    return List.of(SharedOptions.TARGET, PEER_ID);
  }

  static StreamOptions forStart(OptionValues values) {
    TableName target = target(values);
    StreamSettings settings =
        new StreamSettings(
            TableInspector.tableName(SharedOptions.SOURCE.name(), values.get(SharedOptions.SOURCE)),
            target,
            values.get(SharedOptions.SOURCE_KEY),
            values.get(SharedOptions.TARGET_KEY),
            values.get(TARGET_ZK) == null
                ? Map.of()
                : Map.of("hbase.zookeeper.quorum", values.get(TARGET_ZK)));
    try {
      new io.rekey.stream.EditMapper(
          SharedOptions.mapping(settings.sourceKey(), settings.targetKey()));
    } catch (IllegalArgumentException e) {
      throw InvalidOptionException.of(
          SharedOptions.SOURCE_KEY.name(),
          settings.sourceKey(),
          "cannot be streamed: " + e.getMessage());
    }
    return new StreamOptions(peerId(values, target), settings);
  }

  static StreamOptions forPeer(OptionValues values) {
    return new StreamOptions(peerId(values, target(values)), null);
  }

  private static TableName target(OptionValues values) {
    return TableInspector.tableName(SharedOptions.TARGET.name(), values.get(SharedOptions.TARGET));
  }

  private static String peerId(OptionValues values, TableName target) {
    String given = values.get(PEER_ID);
    return given != null ? given : "rekey_" + target.getNameAsString().replace(':', '_');
  }
}
