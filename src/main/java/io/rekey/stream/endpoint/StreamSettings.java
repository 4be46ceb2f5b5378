package io.rekey.stream.endpoint;

import io.rekey.index.entries.IndexShape;
import io.rekey.keys.KeyMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;

/**
 * What a re-keying replication peer carries in its configuration, read by every region server's
 * endpoint: the source table whose edits it takes, the target it writes, the key mapping between
 * them, and the target cluster's client settings (none: the source's own cluster).
 *
 * @param targetClient client settings of the target's cluster ({@code hbase.zookeeper.quorum}, …),
 *     laid over the region server's own; empty for a target on the same cluster
 * @param fenceTable the table of {@link Fences} a switch writes on the source's cluster and the
 *     endpoint acknowledges on the target's
 * @param reverse whether the stream rolls a migration back: its source is the migrated table, its
 *     target the table migrated from, and {@code sourceKey} and {@code targetKey} stay the
 *     migration's (the target's layout, then the source's), run backwards
 * @param indexes the indexes of the target table the stream keeps ({@link IndexKeeper})
 */
public record StreamSettings(
    TableName source,
    TableName target,
    String sourceKey,
    String targetKey,
    Map<String, String> targetClient,
    TableName fenceTable,
    boolean reverse,
    List<StreamedIndex> indexes) {
  static final String PREFIX = "rekey.stream.";
  static final String SOURCE = PREFIX + "source";
  static final String TARGET = PREFIX + "target";
  static final String SOURCE_KEY = PREFIX + "source-key";
  static final String TARGET_KEY = PREFIX + "target-key";
  static final String TARGET_CLIENT = PREFIX + "target-client.";
  static final String FENCE_TABLE = PREFIX + "fence-table";
  static final String DIRECTION = PREFIX + "direction";
  static final String INDEX = PREFIX + "index.";
  private static final String REVERSE = "reverse";

  /** The fence table unless one is named. */
  public static final TableName DEFAULT_FENCE_TABLE = TableName.valueOf("rekey_stream_fence");

  public StreamSettings {
    targetClient = Map.copyOf(targetClient);
    indexes = List.copyOf(indexes);
  }

  /**
   * An index of the target table the stream keeps: the table holding its entries (on the target's
   * cluster), what shapes them, and the state table holding its watermark, which a switch moves.
   */
  public record StreamedIndex(TableName table, IndexShape shape, TableName stateTable) {}

  /** A stream that keeps no index. */
  public StreamSettings(
      TableName source,
      TableName target,
      String sourceKey,
      String targetKey,
      Map<String, String> targetClient,
      TableName fenceTable,
      boolean reverse) {
    this(source, target, sourceKey, targetKey, targetClient, fenceTable, reverse, List.of());
  }

  /** The same stream, keeping {@code indexes} too. */
  public StreamSettings withIndexes(List<StreamedIndex> indexes) {
    return new StreamSettings(
        source, target, sourceKey, targetKey, targetClient, fenceTable, reverse, indexes);
  }

  /** A forward stream fenced in the default table. */
  public StreamSettings(
      TableName source,
      TableName target,
      String sourceKey,
      String targetKey,
      Map<String, String> targetClient) {
    this(source, target, sourceKey, targetKey, targetClient, DEFAULT_FENCE_TABLE, false);
  }

  /**
   * The stream the other way: from this stream's target back into its source, through the same
   * migration's mapping run the other way, fenced in the same table.
   *
   * @param sourceClient client settings of this stream's source cluster, as seen from the target's
   *     (empty on one cluster)
   */
  public StreamSettings reversed(Map<String, String> sourceClient) {
    // The indexes are the migrated table's; the way back writes the old table, which has none.
    return new StreamSettings(
        target, source, sourceKey, targetKey, sourceClient, fenceTable, !reverse, List.of());
  }

  /**
   * The table the migration wrote: the target of a forward stream, the source of a reverse one. Its
   * run history holds the migration's comparisons (verify).
   */
  public TableName migratedTable() {
    return reverse ? source : target;
  }

  /** The key mapping, parsed; a spec that does not parse fails here, before any peer exists. */
  public KeyMapping mapping() {
    return KeyMapping.parse(sourceKey, targetKey);
  }

  /** The settings as a replication peer's configuration. */
  public Map<String, String> toPeerConfiguration() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(SOURCE, source.getNameAsString());
    out.put(TARGET, target.getNameAsString());
    out.put(SOURCE_KEY, sourceKey);
    out.put(TARGET_KEY, targetKey);
    out.put(FENCE_TABLE, fenceTable.getNameAsString());
    if (reverse) {
      out.put(DIRECTION, REVERSE);
    }
    targetClient.forEach((k, v) -> out.put(TARGET_CLIENT + k, v));
    for (int i = 0; i < indexes.size(); i++) {
      String prefix = INDEX + i + ".";
      out.put(prefix + "table", indexes.get(i).table().getNameAsString());
      out.put(prefix + "state-table", indexes.get(i).stateTable().getNameAsString());
      indexes.get(i).shape().toProperties().forEach((k, v) -> out.put(prefix + k, v));
    }
    return out;
  }

  /**
   * The settings a peer's configuration holds.
   *
   * @throws IllegalArgumentException naming the missing key when the configuration is not a
   *     re-keying peer's
   */
  public static StreamSettings fromPeerConfiguration(Map<String, String> peer) {
    Map<String, String> client = new LinkedHashMap<>();
    peer.forEach(
        (k, v) -> {
          if (k.startsWith(TARGET_CLIENT)) {
            client.put(k.substring(TARGET_CLIENT.length()), v);
          }
        });
    return new StreamSettings(
        TableName.valueOf(required(peer, SOURCE)),
        TableName.valueOf(required(peer, TARGET)),
        required(peer, SOURCE_KEY),
        required(peer, TARGET_KEY),
        client,
        TableName.valueOf(peer.getOrDefault(FENCE_TABLE, DEFAULT_FENCE_TABLE.getNameAsString())),
        REVERSE.equals(peer.get(DIRECTION)),
        indexes(peer));
  }

  private static List<StreamedIndex> indexes(Map<String, String> peer) {
    List<StreamedIndex> out = new ArrayList<>();
    for (int i = 0; peer.containsKey(INDEX + i + ".table"); i++) {
      String prefix = INDEX + i + ".";
      Map<String, String> shape = new LinkedHashMap<>();
      peer.forEach(
          (k, v) -> {
            if (k.startsWith(prefix)) {
              shape.put(k.substring(prefix.length()), v);
            }
          });
      TableName table = TableName.valueOf(shape.remove("table"));
      TableName state = TableName.valueOf(required(shape, "state-table"));
      shape.remove("state-table");
      out.add(new StreamedIndex(table, IndexShape.fromProperties(shape), state));
    }
    return out;
  }

  /** The client configuration of the target's cluster, over {@code local}. */
  public Configuration targetConfiguration(Configuration local) {
    Configuration c = new Configuration(local);
    targetClient.forEach(c::set);
    return c;
  }

  private static String required(Map<String, String> peer, String key) {
    String v = peer.get(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(
          "the replication peer's configuration has no " + key + ": it is not a rekey stream's");
    }
    return v;
  }
}
