package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rekey.sketch.BottomK;
import io.rekey.sketch.ByteArena;
import io.rekey.sketch.Distinct;
import io.rekey.sketch.Distribution;
import io.rekey.sketch.Frequent;
import io.rekey.sketch.Quantiles;
import io.rekey.sketch.TopK;
import io.rekey.sketch.Weighted;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class SketchesTest {
  @Test
  void histogramsOfWholeNumbersHaveWholeBinsAndExactCountsWhenSmall() {
    Quantiles q = new Quantiles();
    for (int v = 1; v <= 10; v++) {
      for (int i = 0; i < v; i++) {
        q.update(v);
      }
    }
    Distribution d = q.summary(20);
    assertThat(d.histogram()).hasSize(10);
    for (int v = 1; v <= 10; v++) {
      Distribution.Bin bin = d.histogram().get(v - 1);
      assertThat(bin.from()).isEqualTo(v);
      assertThat(bin.count()).isEqualTo(v);
    }
    assertThat(d.max()).isEqualTo(10);
    assertThat(d.n()).isEqualTo(55);
  }

  @Test
  void quantilesStayWithinTheSketchesRankErrorOnAMillionValues() throws Exception {
    Quantiles a = new Quantiles();
    Quantiles b = new Quantiles();
    Random random = new Random(7);
    for (int i = 0; i < 1_000_000; i++) {
      (i % 2 == 0 ? a : b).update(random.nextInt(1_000_000));
    }
    Quantiles merged = roundTrip(a).merge(roundTrip(b));
    assertThat(merged.n()).isEqualTo(1_000_000);
    assertThat(merged.rankError()).isLessThan(0.02);
    assertThat(merged.quantile(0.5)).isCloseTo(500_000, within(1_000_000 * 0.02));
    assertThat(merged.rankBelow(900_000)).isCloseTo(0.9, within(0.02));
  }

  @Test
  void frequentItemsFindTheHeavyAndReportNothingForAllDistinct() throws Exception {
    Frequent f = new Frequent();
    for (int i = 0; i < 100_000; i++) {
      f.update(i % 10 == 0 ? "hot" : "item" + i, 1);
    }
    List<Weighted> top = roundTrip(f).top(5);
    assertThat(top.get(0).item()).isEqualTo("hot");
    assertThat((double) top.get(0).weight()).isCloseTo(10_000, within(f.maxError() + 1.0));
    Frequent distinct = new Frequent();
    for (int i = 0; i < 100_000; i++) {
      distinct.update("v" + i, 1);
    }
    assertThat(distinct.top(5)).isEmpty();
  }

  @Test
  void distinctCountsMergeWithinTwoPercent() throws Exception {
    Distinct a = new Distinct();
    Distinct b = new Distinct();
    for (int i = 0; i < 200_000; i++) {
      a.update("k" + i);
      b.update("k" + (i + 100_000));
    }
    assertThat((double) roundTrip(a).merge(roundTrip(b)).estimate())
        .isCloseTo(300_000, within(300_000 * 0.02));
  }

  /** One sample of all items, and two of a split of them. */
  record Split<T>(BottomK<T> whole, BottomK<T> left, BottomK<T> right) {}

  /**
   * Offers items 0..n-1 (hashed by {@code mix64} of their number) to a sample of all of them and to
   * the left or the right sample as {@code toLeft} says.
   */
  static <T> Split<T> split(
      int k, BottomK.Codec<T> codec, int n, IntFunction<T> item, IntPredicate toLeft) {
    Split<T> s =
        new Split<>(new BottomK<>(k, codec), new BottomK<>(k, codec), new BottomK<>(k, codec));
    for (int i = 0; i < n; i++) {
      long hash = RowHash.mix64(i);
      T t = item.apply(i);
      s.whole().offer(hash, t);
      (toLeft.test(i) ? s.left() : s.right()).offer(hash, t);
    }
    return s;
  }

  @Test
  void bottomKMergesIntoTheSampleOfTheUnionAndTopKKeepsTheHeaviest() throws Exception {
    Split<Samples.Cell> split =
        split(
            100,
            Samples.CELL_CODEC,
            10_000,
            i -> new Samples.Cell(new byte[] {(byte) i, (byte) (i >> 8)}, i, new byte[0][]),
            i -> i < 3000);
    BottomK<Samples.Cell> left = split.left();
    BottomK<Samples.Cell> right = split.right();
    List<Long> expected = split.whole().items().stream().map(Samples.Cell::ts).sorted().toList();
    assertThat(roundTrip(left).merge(roundTrip(right)).items())
        .extracting(Samples.Cell::ts)
        .containsExactlyInAnyOrderElementsOf(expected);
    // The k smallest hashes of all offered: the sample is the same whatever the split.
    long largestKept = expected.stream().mapToLong(i -> RowHash.mix64(i)).max().orElseThrow();
    assertThat(
            java.util.stream.LongStream.range(0, 10_000)
                .filter(i -> RowHash.mix64(i) <= largestKept)
                .count())
        .isEqualTo(100);
    TopK<Samples.RowSize> top = new TopK<>(3, Samples.RowSize::cells);
    for (int i = 0; i < 1000; i++) {
      top.offer(new Samples.RowSize("r" + i, i % 500 + (i >= 500 ? 500 : 0), i, i));
    }
    assertThat(roundTrip(top).heaviestFirst())
        .extracting(Samples.RowSize::cells)
        .containsExactly(999L, 998L, 997L);
  }

  @Test
  void bottomKKeepsTheOfferedOrderThroughPruningTravelAndMerging() throws Exception {
    // Items are their offer number; the left sample gets the first 6,000, the right the rest, as
    // two tasks reading consecutive key ranges would.
    Split<Samples.Cell> split =
        split(
            300,
            Samples.CELL_CODEC,
            20_000,
            i -> new Samples.Cell(new byte[0], i, new byte[0][]),
            i -> i < 6000);
    List<Long> whole = split.whole().items().stream().map(Samples.Cell::ts).toList();
    assertThat(whole).hasSize(300).isSorted();
    List<Long> merged =
        roundTrip(roundTrip(split.left()).merge(roundTrip(split.right()))).items().stream()
            .map(Samples.Cell::ts)
            .toList();
    // The same items, the left's run then the right's: sorted here, as offered.
    assertThat(merged).containsExactlyElementsOf(whole);
    // Merged the other way round: the right's run first, each run still in its order.
    List<Long> reversed =
        roundTrip(split.right()).merge(roundTrip(split.left())).items().stream()
            .map(Samples.Cell::ts)
            .toList();
    int firstLeft = (int) reversed.stream().filter(ts -> ts >= 6000).count();
    assertThat(reversed.subList(0, firstLeft)).isSorted().allMatch(ts -> ts >= 6000);
    assertThat(reversed.subList(firstLeft, reversed.size())).isSorted().allMatch(ts -> ts < 6000);
    assertThat(reversed).containsExactlyInAnyOrderElementsOf(whole);
  }

  @Test
  void kthSmallestFindsTheValueAtEachRankWithTies() {
    Random random = new Random(11);
    for (int round = 0; round < 200; round++) {
      int size = 1 + random.nextInt(300);
      long[] values = new long[size];
      for (int i = 0; i < size; i++) {
        // Few distinct values in some rounds, so ties are common.
        values[i] = round % 2 == 0 ? random.nextLong() : random.nextInt(5);
      }
      long[] sorted = values.clone();
      java.util.Arrays.sort(sorted);
      int n = random.nextInt(size);
      assertThat(BottomK.kthSmallest(values.clone(), size, n)).isEqualTo(sorted[n]);
    }
  }

  @Test
  void bottomKKeepsEachItemsBytesThroughPruningTravelAndMerging() throws Exception {
    // Keys of every length up to 700 bytes, and a few larger than an arena page.
    Split<Samples.Row> split =
        split(
            500,
            Samples.ROW_CODEC,
            20_000,
            i -> {
              int length = i % 1000 == 7 ? ByteArena.PAGE_BYTES + i : i % 701;
              byte[] key = new byte[length];
              java.util.Arrays.fill(key, (byte) i);
              byte[][] columns = i % 3 == 0 ? new byte[][] {Bytes.toBytes(i), null} : new byte[0][];
              return new Samples.Row(key, i, 2L * i, 3L * i, columns);
            },
            i -> i % 2 == 0);
    BottomK<Samples.Row> whole = split.whole();
    List<Samples.Row> merged =
        roundTrip(roundTrip(split.left()).merge(roundTrip(split.right()))).items();
    assertThat(merged).hasSize(500);
    for (Samples.Row row : merged) {
      int i = (int) row.cells();
      assertThat(row.key()).hasSize(i % 1000 == 7 ? ByteArena.PAGE_BYTES + i : i % 701);
      assertThat(row.key()).containsOnly((byte) i);
      assertThat(row.bytes()).isEqualTo(2L * i);
      assertThat(row.newestTs()).isEqualTo(3L * i);
      assertThat(row.columns().length).isEqualTo(i % 3 == 0 ? 2 : 0);
      if (i % 3 == 0) {
        assertThat(Bytes.toInt(row.columns()[0])).isEqualTo(i);
        assertThat(row.columns()[1]).isNull();
      }
    }
    assertThat(merged)
        .extracting(Samples.Row::cells)
        .containsExactlyInAnyOrderElementsOf(
            whole.items().stream().map(Samples.Row::cells).toList());
  }

  @Test
  void bottomKsSharingAThresholdDropWhatCannotBeInTheMergedSampleAndMergeTheSame()
      throws Exception {
    BottomK<Samples.Cell> whole = new BottomK<>(100, Samples.CELL_CODEC);
    BottomK<Samples.Cell> first = new BottomK<>(100, Samples.CELL_CODEC);
    BottomK<Samples.Cell> later = new BottomK<>(100, Samples.CELL_CODEC);
    AtomicLong shared = new AtomicLong(Long.MAX_VALUE);
    first.shareThreshold(shared);
    long reached = 0;
    for (int i = 0; i < 20_000; i++) {
      Samples.Cell cell = new Samples.Cell(Bytes.toBytes(i), i, new byte[0][]);
      whole.offer(RowHash.mix64(i), cell);
      if (i == 10_000) {
        // A later task starts from the threshold the first one reached.
        reached = shared.get();
        later.shareThreshold(shared);
      }
      (i < 10_000 ? first : later).offer(RowHash.mix64(i), cell);
    }
    long bound = reached;
    assertThat(bound).isLessThan(Long.MAX_VALUE);
    assertThat(later.items())
        .isNotEmpty()
        .allSatisfy(c -> assertThat(RowHash.mix64(c.ts())).isLessThan(bound));
    assertThat(roundTrip(first).merge(roundTrip(later)).items())
        .extracting(Samples.Cell::ts)
        .containsExactlyInAnyOrderElementsOf(whole.items().stream().map(Samples.Cell::ts).toList());
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T value) throws Exception {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(buffer.toByteArray()))) {
      return (T) in.readObject();
    }
  }
}
