package io.rekey.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class CellDigestTest {
  private static final byte[] ROW = Bytes.toBytes("row-1");

  @Test
  void theSumIsTheSameInAnyOrderAndSeesADoubledCell() {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      cells.add(cell("m", "q" + i, 1_000 + i, KeyValue.Type.Put, "v" + i));
    }
    CellDigest inOrder = sum(cells);
    Collections.shuffle(cells, new Random(7));
    assertThat(sum(cells)).isEqualTo(inOrder);
    assertThat(inOrder.cells()).isEqualTo(50);
    cells.add(cells.get(3));
    assertThat(sum(cells)).isNotEqualTo(inOrder);
  }

  @Test
  void everyPartOfACellCounts() {
    CellDigest base = digest(cell("m", "q", 5, KeyValue.Type.Put, "value"));
    assertThat(CellDigest.of(Bytes.toBytes("row-2"), cell("m", "q", 5, KeyValue.Type.Put, "value")))
        .isNotEqualTo(base);
    assertThat(digest(cell("n", "q", 5, KeyValue.Type.Put, "value"))).isNotEqualTo(base);
    assertThat(digest(cell("m", "r", 5, KeyValue.Type.Put, "value"))).isNotEqualTo(base);
    assertThat(digest(cell("m", "q", 6, KeyValue.Type.Put, "value"))).isNotEqualTo(base);
    assertThat(digest(cell("m", "q", 5, KeyValue.Type.Delete, "value"))).isNotEqualTo(base);
    assertThat(digest(cell("m", "q", 5, KeyValue.Type.Put, "valuf"))).isNotEqualTo(base);
    // Parts are length-prefixed: bytes moved from the qualifier to the value are a change.
    assertThat(digest(cell("m", "qv", 5, KeyValue.Type.Put, "alue"))).isNotEqualTo(base);
  }

  @Test
  void aCellInsideABiggerArrayDigestsAsItsCopy() {
    KeyValue alone = cell("m", "q", 5, KeyValue.Type.Put, "value");
    byte[] padded = new byte[alone.getLength() + 100];
    System.arraycopy(alone.getBuffer(), alone.getOffset(), padded, 37, alone.getLength());
    assertThat(digest(new KeyValue(padded, 37, alone.getLength()))).isEqualTo(digest(alone));
  }

  @Test
  void aLargeValueCountsByEveryByte() {
    byte[] big = new byte[CellDigest.LARGE_VALUE + 1];
    new Random(1).nextBytes(big);
    CellDigest base = digest(cell("m", "q", 5, big));
    big[big.length - 1] ^= 1;
    assertThat(digest(cell("m", "q", 5, big))).isNotEqualTo(base);
    big[big.length - 1] ^= 1;
    assertThat(digest(cell("m", "q", 5, big))).isEqualTo(base);
    // The same bytes but one, small enough to be copied whole, digest otherwise.
    byte[] small = java.util.Arrays.copyOf(big, CellDigest.LARGE_VALUE);
    assertThat(digest(cell("m", "q", 5, small))).isNotEqualTo(base);
  }

  private static CellDigest sum(List<Cell> cells) {
    CellDigest d = CellDigest.EMPTY;
    for (Cell c : cells) {
      d = d.plus(digest(c));
    }
    return d;
  }

  private static CellDigest digest(Cell c) {
    return CellDigest.of(ROW, c);
  }

  private static KeyValue cell(
      String family, String qualifier, long ts, KeyValue.Type type, String v) {
    return new KeyValue(
        ROW, Bytes.toBytes(family), Bytes.toBytes(qualifier), ts, type, Bytes.toBytes(v));
  }

  private static KeyValue cell(String family, String qualifier, long ts, byte[] v) {
    return new KeyValue(ROW, Bytes.toBytes(family), Bytes.toBytes(qualifier), ts, v);
  }
}
