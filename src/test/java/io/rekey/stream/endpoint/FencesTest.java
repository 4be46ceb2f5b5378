package io.rekey.stream.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Fence rows: an endpoint knows its own peer's fences and nothing else. */
class FencesTest {
  private static Cell cell(byte[] row, KeyValue.Type type, String qualifier) {
    return new KeyValue(row, Fences.FAMILY, Bytes.toBytes(qualifier), 1L, type, Bytes.toBytes(1L));
  }

  @Test
  void aFenceRowSaysItsRegionAndRoundToItsOwnPeerOnly() {
    byte[] row = Fences.fenceRow(300, "rekey_t", 42L);
    assertThat(Fences.parse(row, "rekey_t")).isEqualTo(new Fences.Fence(300, 42L));
    assertThat(Fences.parse(row, "rekey_u")).isNull();
    assertThat(Fences.parse(row, "rekey_")).isNull();
    assertThat(Fences.parse(Fences.fenceRow(1, "rekey_tt", 42L), "rekey_t")).isNull();
    // The acknowledgements share the table on one cluster: never read as a fence.
    assertThat(Fences.parse(Fences.ackRow("rekey_t", 42L), "rekey_t")).isNull();
    assertThat(Bytes.compareTo(Fences.fenceRow(0, "p", 1), Fences.splits(2)[0])).isNegative();
    assertThat(Bytes.compareTo(Fences.fenceRow(1, "p", 1), Fences.splits(2)[0])).isPositive();
  }

  @Test
  void onlyTheFencePutsOfAnEditCountOnceEach() {
    byte[] row = Fences.fenceRow(2, "p", 7L);
    List<Cell> cells =
        List.of(
            cell(row, KeyValue.Type.Put, "fence"),
            cell(row, KeyValue.Type.Put, "fence"),
            cell(row, KeyValue.Type.DeleteColumn, "fence"),
            cell(row, KeyValue.Type.Put, "other"),
            cell(Fences.fenceRow(3, "q", 7L), KeyValue.Type.Put, "fence"));
    assertThat(Fences.in(cells, "p")).containsExactly(new Fences.Fence(2, 7L));
  }

  @Test
  void theSplitsGiveOneRegionAServer() {
    assertThat(Fences.splits(1).length).isZero();
    assertThat(Fences.splits(3).length).isEqualTo(2);
    assertThat(Fences.splits(3)[1]).containsExactly(0, 2);
  }

  @Test
  void aServerWithSeveralWalsIsSeenInItsConfiguration() {
    org.apache.hadoop.conf.Configuration c = new org.apache.hadoop.conf.Configuration(false);
    assertThat(RekeyingEndpoint.severalWals(c)).isFalse();
    c.set("hbase.wal.provider", "asyncfs");
    assertThat(RekeyingEndpoint.severalWals(c)).isFalse();
    c.set("hbase.wal.provider", "multiwal");
    assertThat(RekeyingEndpoint.severalWals(c)).isTrue();
    c.set("hbase.wal.provider", "org.apache.hadoop.hbase.wal.RegionGroupingProvider");
    assertThat(RekeyingEndpoint.severalWals(c)).isTrue();
  }
}
