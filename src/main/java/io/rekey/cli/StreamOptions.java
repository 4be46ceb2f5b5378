package io.rekey.cli;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.SharedOptions;
import io.rekey.run.RunLock;
import io.rekey.schema.TableInspector;
import io.rekey.stream.StreamSwitch;
import io.rekey.stream.endpoint.StreamSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of the {@code stream} commands: which stream (its replication peer, named after the
 * target unless given) and, to start one, what it re-keys.
 *
 * @param peerId the replication peer of the stream
 * @param settings what a started stream re-keys; null for status, switch and stop
 * @param switching how a switch waits and what it trusts; null but for switch
 * @param reverse whether stop starts the stream the other way (stop only)
 * @param bandwidth bytes of WAL entries a second each region server ships to the stream, 0 for no
 *     limit (start only)
 */
record StreamOptions(
    String peerId,
    StreamSettings settings,
    StreamSwitch.Options switching,
    boolean reverse,
    long bandwidth) {
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

  static final OptionDef<Long> BANDWIDTH =
      OptionDef.number(
              "bandwidth",
              "BYTES",
              "bytes of WAL entries each region server ships to the stream a second (HBase's peer"
                  + " bandwidth, as the shell's set_peer_bandwidth, which changes it later), to"
                  + " spare the source's own users while a backlog drains; 0: no limit",
              0,
              Long.MAX_VALUE)
          .withDefault(0L);

  static final OptionDef<Double> SETTLE =
      OptionDef.decimal(
              "settle",
              "SECONDS",
              "how long the source must serve no write before the switch fences it",
              0,
              600)
          .withDefault(1.0);
  static final OptionDef<Long> DRAIN_TIMEOUT =
      OptionDef.number(
              "drain-timeout",
              "SECONDS",
              "how long the switch waits for the stream to ship up to its fences",
              1,
              3600)
          .withDefault(60L);
  static final OptionDef<Long> MAX_VERIFY_AGE =
      OptionDef.number(
              "max-verify-age",
              "HOURS",
              "how old the target's last full comparison (verify) may be for a switch",
              1,
              24 * 365)
          .withDefault(24L);

  static final OptionDef<Boolean> REVERSE =
      OptionDef.flag(
          "reverse",
          "after a switch: start the stream the other way, the migrated table's edits carried back"
              + " into the table migrated from (a rollback is then one more switch)");

  static List<OptionDef<?>> declaredForStart() {
    return List.of(
        SharedOptions.SOURCE,
        SharedOptions.TARGET,
        SharedOptions.SOURCE_KEY,
        SharedOptions.TARGET_KEY,
        PEER_ID,
        TARGET_ZK,
        BANDWIDTH);
  }

  static List<OptionDef<?>> declaredForPeer() {
    return List.of(SharedOptions.TARGET, PEER_ID);
  }

  static List<OptionDef<?>> declaredForStop() {
    return List.of(SharedOptions.TARGET, PEER_ID, REVERSE);
  }

  static List<OptionDef<?>> declaredForSwitch() {
    return List.of(
        SharedOptions.TARGET,
        PEER_ID,
        SETTLE,
        DRAIN_TIMEOUT,
        MAX_VERIFY_AGE,
        SharedOptions.ACCEPT_UNMAPPED,
        RunLock.STATE_TABLE);
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
      new io.rekey.stream.endpoint.EditMapper(
          SharedOptions.mapping(settings.sourceKey(), settings.targetKey()));
    } catch (IllegalArgumentException e) {
      throw InvalidOptionException.of(
          SharedOptions.SOURCE_KEY.name(),
          settings.sourceKey(),
          "cannot be streamed: " + e.getMessage());
    }
    return new StreamOptions(peerId(values, target), settings, null, false, values.get(BANDWIDTH));
  }

  static StreamOptions forPeer(OptionValues values) {
    return new StreamOptions(peerId(values, target(values)), null, null, false, 0);
  }

  static StreamOptions forStop(OptionValues values) {
    return new StreamOptions(peerId(values, target(values)), null, null, values.get(REVERSE), 0);
  }

  static StreamOptions forSwitch(OptionValues values) {
    StreamSwitch.Options switching =
        new StreamSwitch.Options(
            TableInspector.tableName(RunLock.STATE_TABLE.name(), values.get(RunLock.STATE_TABLE)),
            Duration.ofMillis(Math.round(values.get(SETTLE) * 1000)),
            Duration.ofSeconds(values.get(DRAIN_TIMEOUT)),
            Duration.ofHours(values.get(MAX_VERIFY_AGE)),
            values.get(SharedOptions.ACCEPT_UNMAPPED));
    return new StreamOptions(peerId(values, target(values)), null, switching, false, 0);
  }

  private static TableName target(OptionValues values) {
    return TableInspector.tableName(SharedOptions.TARGET.name(), values.get(SharedOptions.TARGET));
  }

  private static String peerId(OptionValues values, TableName target) {
    String given = values.get(PEER_ID);
    return given != null ? given : defaultPeerId(target);
  }

  /** The peer of a stream into {@code target} unless one is named. */
  static String defaultPeerId(TableName target) {
    return "rekey_" + target.getNameAsString().replace(':', '_');
  }
}
