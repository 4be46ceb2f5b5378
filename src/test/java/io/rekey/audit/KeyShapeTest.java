package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class KeyShapeTest {
  @Test
  void timeFirstTextKeysAreMonotonicByBothSigns() {
    AuditResult.Monotonic m = KeyShape.of(rows(i -> Synthetic.timeFirstKey(i), true), 1000);
    assertThat(m.monotonic()).isTrue();
    assertThat(m.keyTimeCorrelation()).isGreaterThan(0.99);
    assertThat(m.prefixKind()).isEqualTo("epoch-millis");
  }

  @Test
  void epochSecondsCountersAndBinaryMillisAreRecognised() {
    List<byte[]> seconds = new ArrayList<>();
    List<byte[]> counter = new ArrayList<>();
    List<byte[]> binary = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      seconds.add(Bytes.toBytes((1_767_225_600L + i) + "|dev" + i));
      counter.add(Bytes.toBytes(String.format("%010d", 5000 + i) + "-order"));
      binary.add(Bytes.add(Bytes.toBytes(Synthetic.T0 + i), Bytes.toBytes("x")));
    }
    assertThat(KeyShape.prefix(seconds, 200).kind()).isEqualTo("epoch-seconds");
    assertThat(KeyShape.prefix(counter, 200).kind()).isEqualTo("counter");
    assertThat(KeyShape.prefix(binary, 200).kind()).isEqualTo("epoch-millis-binary");
  }

  @Test
  void randomKeysAndRandomIdsAreNotMonotonic() {
    Random random = new Random(3);
    List<Samples.Row> sample = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      byte[] key =
          Bytes.toBytes(String.format("%012d", Math.abs(random.nextLong() % 1_000_000_000_000L)));
      sample.add(new Samples.Row(key, 1, 10, Synthetic.T0 + i, new byte[0][]));
    }
    AuditResult.Monotonic m = KeyShape.of(sample, 500);
    assertThat(m.monotonic()).isFalse();
    assertThat(Math.abs(m.keyTimeCorrelation())).isLessThan(0.2);
    assertThat(m.prefixKind()).isEqualTo("none");
  }

  @Test
  void ranksStartAtOneAndTiesShareTheirMeanRank() {
    assertThat(KeyShape.ranks(new double[] {30, 10, 30, 20, 30, 5}))
        .containsExactly(5.0, 2.0, 5.0, 3.0, 5.0, 1.0);
    assertThat(KeyShape.ranks(new double[] {7})).containsExactly(1.0);
    assertThat(KeyShape.ranks(new double[] {-1, -1})).containsExactly(1.5, 1.5);
  }

  @Test
  void reversedTimeIsMonotonicToo() {
    AuditResult.Monotonic m =
        KeyShape.of(rows(i -> Bytes.toBytes(Long.MAX_VALUE - Synthetic.T0 - i), true), 1000);
    assertThat(m.monotonic()).isTrue();
    assertThat(m.keyTimeCorrelation()).isLessThan(-0.99);
  }

  @Test
  void tooFewRowsSayNothing() {
    assertThat(
            KeyShape.of(rows(i -> Synthetic.timeFirstKey(i), true).subList(0, 10), 10).monotonic())
        .isFalse();
  }

  private static List<Samples.Row> rows(java.util.function.IntFunction<byte[]> key, boolean b) {
    List<Samples.Row> out = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      out.add(new Samples.Row(key.apply(i), 3, 60, Synthetic.T0 + i * 1000L, new byte[0][]));
    }
    return out;
  }
}
