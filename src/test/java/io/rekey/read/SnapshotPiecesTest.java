package io.rekey.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class SnapshotPiecesTest {
  @Test
  void readTasksGoToRegionsByTheirSize() {
    assertThat(SubdividedSnapshotInputFormat.share(4, new long[] {47, 345})).containsExactly(1, 3);
    assertThat(SubdividedSnapshotInputFormat.share(4, new long[] {10, 10, 10, 10, 10}))
        .containsExactly(1, 1, 1, 1, 1);
    assertThat(SubdividedSnapshotInputFormat.share(100, new long[] {1, 1_000_000}))
        .containsExactly(1, SubdividedSnapshotInputFormat.MAX_PIECES_PER_REGION);
  }

  @Test
  void keyFractionIsTheKeysPlaceInTheKeySpace() {
    assertThat(
            SubdividedSnapshotInputFormat.keyFraction(
                Bytes.toBytes("a0"), Bytes.toBytes("a9"), Bytes.toBytes("a3")))
        .isCloseTo(3 / 9.0, within(0.01));
    assertThat(
            SubdividedSnapshotInputFormat.keyFraction(
                new byte[] {0}, new byte[] {100}, new byte[] {50}))
        .isCloseTo(0.5, within(0.001));
  }

  @Test
  void cutsFallWhereTheBytesAre() {
    // One file: most bytes in the last span, as a time-first table's newest data.
    List<SubdividedSnapshotInputFormat.Span> spans =
        List.of(
            new SubdividedSnapshotInputFormat.Span(Bytes.toBytes("k10"), Bytes.toBytes("k20"), 10),
            new SubdividedSnapshotInputFormat.Span(Bytes.toBytes("k20"), Bytes.toBytes("k30"), 10),
            new SubdividedSnapshotInputFormat.Span(Bytes.toBytes("k30"), Bytes.toBytes("k90"), 60));
    byte[][] cuts = SubdividedSnapshotInputFormat.cutsFromSpans(spans, 4);
    assertThat(cuts).hasNumberOfRows(5);
    assertThat(Bytes.toString(cuts[0])).isEqualTo("k10");
    assertThat(Bytes.toString(cuts[4])).isEqualTo("k90");
    // 80 bytes in 4 pieces of 20: k10..k30, then three pieces of 20 over k30..k90 (20 apart).
    assertThat(Bytes.toString(cuts[1])).isEqualTo("k30");
    assertThat(Bytes.compareTo(cuts[2], Bytes.toBytes("k49"))).isGreaterThan(0);
    assertThat(Bytes.compareTo(cuts[2], Bytes.toBytes("k51"))).isLessThan(0);
    for (int i = 1; i < cuts.length; i++) {
      assertThat(Bytes.compareTo(cuts[i - 1], cuts[i])).isLessThan(0);
    }
  }
}
