package io.rekey.stream.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.index.entries.IndexKey;
import io.rekey.index.entries.IndexShape;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class StreamSettingsTest {
  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static final TableName STATE = TableName.valueOf("ns:index_state");

  private static final IndexShape BY_SENDER =
      new IndexShape(
          new IndexShape.Column("m", "sender"),
          null,
          List.of(new IndexShape.Column("m", "body"), new IndexShape.Column("n", "subject")),
          "i",
          IndexKey.parse("key", "salt(4) + value + reverse_ts(ts) + key", 512),
          true);

  private static final IndexShape BY_USER =
      new IndexShape(
          null,
          "user",
          List.of(),
          "x",
          IndexKey.parse("user + '#' + sent:long", "value + key", 1024),
          false);

  @Test
  void theIndexesAStreamKeepsReachEveryRegionServerInThePeersConfiguration() throws Exception {
    StreamSettings s =
        new StreamSettings(
                TableName.valueOf("old"),
                TableName.valueOf("new"),
                "text: ts:long + '_' + user",
                "user + '#' + ts:long",
                Map.of())
            .withIndexes(
                List.of(
                    new StreamSettings.StreamedIndex(
                        TableName.valueOf("ns:by_sender"), BY_SENDER, STATE),
                    new StreamSettings.StreamedIndex(
                        TableName.valueOf("by_user"), BY_USER, STATE)));
    StreamSettings read = StreamSettings.fromPeerConfiguration(s.toPeerConfiguration());
    assertThat(read.indexes()).hasSize(2);
    for (int i = 0; i < 2; i++) {
      assertThat(read.indexes().get(i).table()).isEqualTo(s.indexes().get(i).table());
      assertThat(read.indexes().get(i).stateTable()).isEqualTo(STATE);
      assertThat(read.indexes().get(i).shape().toProperties())
          .isEqualTo(s.indexes().get(i).shape().toProperties());
    }
    // The same entries from the same row, on either side of the peer's configuration.
    byte[] row = b("alice#5");
    Result r =
        Result.create(
            new Cell[] {
              new KeyValue(row, b("m"), b("body"), 7, b("hi")),
              new KeyValue(row, b("m"), b("sender"), 9, b("bob")),
              new KeyValue(row, b("m"), b("sender"), 8, b("carol"))
            });
    for (int i = 0; i < 2; i++) {
      var before = s.indexes().get(i).shape().entries().entries(r);
      var after = read.indexes().get(i).shape().entries().entries(r);
      assertThat(after).hasSize(before.size()).isNotEmpty();
      for (int e = 0; e < before.size(); e++) {
        assertThat(after.get(e).key()).isEqualTo(before.get(e).key());
      }
    }
    // The way back writes the old table, which has no index of the stream's.
    assertThat(s.reversed(Map.of()).indexes()).isEmpty();
  }

  @Test
  void aPeerConfigurationWithAHalfWrittenIndexIsRefusedNamingWhatIsMissing() {
    Map<String, String> peer =
        new java.util.LinkedHashMap<>(
            new StreamSettings(
                    TableName.valueOf("old"), TableName.valueOf("new"), "key", "key", Map.of())
                .withIndexes(
                    List.of(
                        new StreamSettings.StreamedIndex(
                            TableName.valueOf("ix"), BY_SENDER, STATE)))
                .toPeerConfiguration());
    peer.remove("rekey.stream.index.0.index-key");
    assertThatThrownBy(() -> StreamSettings.fromPeerConfiguration(peer))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an index shape has no index-key");
  }
}
