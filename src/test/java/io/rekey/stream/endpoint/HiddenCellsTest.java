package io.rekey.stream.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** What the endpoint records of a cell that reads differently, and which cells it reads back. */
class HiddenCellsTest {
  @Test
  void aRecordedCellReadsBackAsTheSameCellWhateverItsBytes() {
    HiddenCells.Stamped cell =
        new HiddenCells.Stamped(
            new byte[] {0, (byte) 0xFF, 1},
            Bytes.toBytes("t\u0000row"),
            Bytes.toBytes("m"),
            new byte[0],
            42L);
    HiddenCells.Stamped back = HiddenCells.Stamped.decode(cell.encode());
    assertThat(back.sourceRow()).isEqualTo(cell.sourceRow());
    assertThat(back.targetRow()).isEqualTo(cell.targetRow());
    assertThat(back.family()).isEqualTo(cell.family());
    assertThat(back.qualifier()).isEmpty();
    assertThat(back.timestamp()).isEqualTo(42L);
    assertThat(new HiddenCells.Seen(cell, true).describe())
        .isEqualTo("\\x00\\xFF\\x01/m:@42 is read from the source but hidden in the target");
  }

  @Test
  void onlyACellStampedWellBeforeItWasLoggedIsReadBack() {
    long logged = 1_000_000L;
    assertThat(HiddenCells.stampedBefore(put(logged), logged)).isFalse();
    assertThat(HiddenCells.stampedBefore(put(logged - HiddenCells.STAMPED_BEFORE_MS), logged))
        .isFalse();
    assertThat(HiddenCells.stampedBefore(put(logged - HiddenCells.STAMPED_BEFORE_MS - 1), logged))
        .isTrue();
  }

  private static KeyValue put(long ts) {
    return new KeyValue(
        Bytes.toBytes("r"), Bytes.toBytes("m"), Bytes.toBytes("q"), ts, Bytes.toBytes("v"));
  }
}
