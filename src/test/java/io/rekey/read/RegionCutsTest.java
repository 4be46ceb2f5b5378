package io.rekey.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RegionCutsTest {
  @Test
  void readTasksGoToRegionsByTheirSize() {
    assertThat(RegionCuts.share(4, new long[] {47, 345})).containsExactly(1, 3);
    assertThat(RegionCuts.share(4, new long[] {10, 10, 10, 10, 10})).containsExactly(1, 1, 1, 1, 1);
    assertThat(RegionCuts.share(100, new long[] {1, 1_000_000}))
        .containsExactly(1, RegionCuts.MAX_PIECES_PER_REGION);
  }

  @Test
  void keyFractionIsTheKeysPlaceInTheKeySpace() {
    assertThat(
            RegionCuts.keyFraction(Bytes.toBytes("a0"), Bytes.toBytes("a9"), Bytes.toBytes("a3")))
        .isCloseTo(3 / 9.0, within(0.01));
    assertThat(RegionCuts.keyFraction(new byte[] {0}, new byte[] {100}, new byte[] {50}))
        .isCloseTo(0.5, within(0.001));
  }

  @Test
  void cutsFallWhereTheBytesAre() {
    // One file: most bytes in the last span, as a time-first table's newest data.
    List<RegionCuts.Span> spans =
        List.of(
            new RegionCuts.Span(Bytes.toBytes("k10"), Bytes.toBytes("k20"), 10),
            new RegionCuts.Span(Bytes.toBytes("k20"), Bytes.toBytes("k30"), 10),
            new RegionCuts.Span(Bytes.toBytes("k30"), Bytes.toBytes("k90"), 60));
    byte[][] cuts = RegionCuts.cutsFromSpans(spans, 4);
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

  @Test
  void piecesTileTheRangeWhateverTheCuts() {
    byte[][] cuts = keys("a", "a5", "c", "e", "f");
    assertThat(text(RegionCuts.ranges(b("b"), b("d"), cuts))).containsExactly("b..c", "c..d");
    assertThat(text(RegionCuts.ranges(b(""), b(""), keys("a", "b", "c", "d"))))
        .containsExactly("..b", "b..c", "c..");
    assertThat(text(RegionCuts.ranges(b("b"), b("d"), null))).containsExactly("b..d");
  }

  @Test
  void aScansRowsBoundItsRegionsPieces() {
    assertThat(text(Collections.singletonList(RegionCuts.within(b("b"), b("d"), b("c"), b("")))))
        .containsExactly("c..d");
    assertThat(text(Collections.singletonList(RegionCuts.within(b("b"), b(""), b(""), b("x")))))
        .containsExactly("b..x");
    assertThat(text(Collections.singletonList(RegionCuts.within(b(""), b("m"), b("a"), b("z")))))
        .containsExactly("a..m");
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static byte[][] keys(String... s) {
    byte[][] out = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      out[i] = b(s[i]);
    }
    return out;
  }

  private static List<String> text(List<byte[][]> ranges) {
    return ranges.stream().map(r -> Bytes.toString(r[0]) + ".." + Bytes.toString(r[1])).toList();
  }
}
