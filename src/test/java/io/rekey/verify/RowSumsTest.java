package io.rekey.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RowSumsTest {
  private static final CellDigest FIVE = new CellDigest(5, -7L, Long.MAX_VALUE);

  @Test
  void eachSideSurvivesItsShuffledFormAndOnlyItsOwnSideIsWritten() {
    RowSums source = RowSums.fromBytes(RowSums.source(FIVE, Bytes.toBytes("old-1")).toBytes());
    assertThat(source.sourceCells).isEqualTo(5);
    assertThat(source.sourceHigh).isEqualTo(-7L);
    assertThat(source.sourceLow).isEqualTo(Long.MAX_VALUE);
    assertThat(source.targetCells + source.targetHigh + source.targetLow).isZero();
    assertThat(List.of(source.sourceKeys)).containsExactly(Bytes.toBytes("old-1"));
    assertThat(source.kind()).isEqualTo(RowDifferences.Kind.MISSING);

    byte[] target = RowSums.target(FIVE).toBytes();
    // A flag, one side's three sums and an empty key list.
    assertThat(target).hasSize(1 + 24 + 4);
    assertThat(RowSums.fromBytes(target).kind()).isEqualTo(RowDifferences.Kind.EXTRA);
  }

  @Test
  void addedInTheirShuffledFormAsObjects() {
    byte[] a = RowSums.source(FIVE, Bytes.toBytes("old-1")).toBytes();
    byte[] b = RowSums.source(new CellDigest(1, 3, 4), Bytes.toBytes("old-2")).toBytes();
    byte[] t = RowSums.target(new CellDigest(6, -4, Long.MAX_VALUE + 4)).toBytes();
    RowSums merged = RowSums.fromBytes(RowSums.plus(RowSums.plus(a, b), t));
    assertThat(merged.sourceCells).isEqualTo(6);
    assertThat(List.of(merged.sourceKeys))
        .containsExactly(Bytes.toBytes("old-1"), Bytes.toBytes("old-2"));
    assertThat(merged.differ()).isFalse();
    // The same source row twice (a wide row in batches) is named once, its sums added.
    RowSums twice = RowSums.fromBytes(RowSums.plus(a, a));
    assertThat(List.of(twice.sourceKeys)).hasSize(1);
    assertThat(twice.sourceCells).isEqualTo(10);
    RowSums changed =
        RowSums.fromBytes(RowSums.plus(a, RowSums.target(new CellDigest(5, -7, 0)).toBytes()));
    assertThat(changed.differ()).isTrue();
    assertThat(changed.kind()).isEqualTo(RowDifferences.Kind.DIFFERENT);
  }
}
