package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Scan planning and split points checked against brute force over many generated keys. */
class ScanAndSplitTest {
  static final String SOURCE = "text: ts:long + '_' + user + '_' + order";

  record Row(String user, long ts, String order, byte[] key) {}

  static List<Row> rows(KeyMapping m, int n) throws KeyReject {
    SplittableRandom random = new SplittableRandom(3);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // user1 and user10 both exist, so prefix exactness is tested.
      String user = "user" + random.nextInt(1, 30);
      long ts = 1_767_225_600_000L + random.nextInt(1_000_000);
      String order = "o" + i;
      byte[] old = (ts + "_" + user + "_" + order).getBytes(StandardCharsets.UTF_8);
      rows.add(new Row(user, ts, order, m.map(old, ColumnValues.NONE)));
    }
    return rows;
  }

  static boolean inAny(List<KeyRange> ranges, byte[] key) {
    return ranges.stream().anyMatch(r -> r.contains(key));
  }

  @Test
  void saltOverTheGivenFieldGivesOneExactRange() throws Exception {
    for (String target :
        new String[] {
          "salt(16, user) + user + reverse_ts(ts) + order",
          "text: salt(16, user) + '_' + user + '_' + reverse_ts(ts) + '_' + order"
        }) {
      KeyMapping m = KeyMapping.parse(SOURCE, target);
      List<Row> rows = rows(m, 3000);
      List<KeyRange> ranges =
          ScanPlanner.plan(m.target(), Map.of("user", FieldValue.of("user1")), Map.of());
      assertThat(ranges).as(target).hasSize(1);
      for (Row r : rows) {
        assertThat(inAny(ranges, r.key()))
            .as("%s %s", target, r.user())
            .isEqualTo(r.user().equals("user1"));
      }
    }
  }

  @Test
  void saltOverOtherFieldsFansOutPerBucket() throws Exception {
    KeyMapping m = KeyMapping.parse(SOURCE, "salt(8) + user + reverse_ts(ts) + order");
    List<Row> rows = rows(m, 3000);
    List<KeyRange> ranges =
        ScanPlanner.plan(m.target(), Map.of("user", FieldValue.of("user1")), Map.of());
    assertThat(ranges).hasSize(8);
    for (Row r : rows) {
      assertThat(inAny(ranges, r.key())).isEqualTo(r.user().equals("user1"));
    }
  }

  @Test
  void timeRangeOnReversedTimestampIsFlipped() throws Exception {
    for (String target :
        new String[] {
          "salt(4, user) + user + reverse_ts(ts) + order",
          "text: salt(4, user) + '_' + user + '_' + reverse_ts(ts) + '_' + order"
        }) {
      KeyMapping m = KeyMapping.parse(SOURCE, target);
      List<Row> rows = rows(m, 5000);
      long from = 1_767_225_600_000L + 200_000;
      long to = 1_767_225_600_000L + 400_000;
      List<KeyRange> ranges =
          ScanPlanner.plan(
              m.target(),
              Map.of("user", FieldValue.of("user7")),
              Map.of("ts", new ScanPlanner.NumberRange(from, to)));
      assertThat(ranges).hasSize(1);
      int matches = 0;
      for (Row r : rows) {
        boolean want = r.user().equals("user7") && r.ts() >= from && r.ts() < to;
        assertThat(inAny(ranges, r.key())).as("%s ts=%d", target, r.ts()).isEqualTo(want);
        matches += want ? 1 : 0;
      }
      assertThat(matches).isPositive();
    }
  }

  @Test
  void exactLastFieldDoesNotMatchLongerValues() throws Exception {
    KeyLayout layout = KeyLayout.parse("text: a + '_' + b");
    byte[] k1 = layout.encode(Map.of("a", FieldValue.of("x"), "b", FieldValue.of("user1")), null);
    byte[] k10 = layout.encode(Map.of("a", FieldValue.of("x"), "b", FieldValue.of("user10")), null);
    List<KeyRange> ranges =
        ScanPlanner.plan(
            layout, Map.of("a", FieldValue.of("x"), "b", FieldValue.of("user1")), Map.of());
    assertThat(inAny(ranges, k1)).isTrue();
    assertThat(inAny(ranges, k10)).isFalse();
  }

  @Test
  void noValuesMeansTheWholeTable() {
    KeyLayout layout = KeyLayout.parse("user + n:long");
    assertThat(ScanPlanner.plan(layout, Map.of(), Map.of()))
        .containsExactly(new KeyRange(new byte[0], new byte[0]));
  }

  @Test
  void saltSplitPointsAreTheBucketStarts() {
    KeyLayout binary = KeyLayout.parse("salt(16, user) + user");
    List<byte[]> points = SplitPoints.plan(binary, 16, List.of());
    assertThat(points).hasSize(15);
    for (int i = 0; i < 15; i++) {
      assertThat(points.get(i)).isEqualTo(new byte[] {(byte) (i + 1)});
    }
    KeyLayout text = KeyLayout.parse("text: salt(16, user) + '_' + user");
    assertThat(new String(SplitPoints.plan(text, 16, List.of()).get(0))).isEqualTo("01");
    assertThat(new String(SplitPoints.plan(text, 16, List.of()).get(14))).isEqualTo("15");
  }

  @Test
  void splitsInsideBucketsComeFromTheSampleOrEvenly() throws Exception {
    KeyMapping m = KeyMapping.parse(SOURCE, "salt(4, user) + user + reverse_ts(ts) + order");
    List<byte[]> sample = rows(m, 4000).stream().map(Row::key).toList();
    List<byte[]> points = SplitPoints.plan(m.target(), 12, sample);
    assertThat(points).hasSize(11);
    assertSortedDistinct(points);
    // Each of the 12 regions gets a fair share of the sample.
    int[] counts = regionCounts(points, sample);
    for (int c : counts) {
      assertThat(c).isGreaterThan(sample.size() / 12 / 3);
    }
    List<byte[]> even = SplitPoints.plan(m.target(), 8, List.of());
    assertThat(even).hasSize(7);
    assertThat(even.get(0)).isEqualTo(new byte[] {0, (byte) 0x80, 0});
    assertSortedDistinct(even);
  }

  @Test
  void hashedLayoutsSplitEvenlyAndOthersNeedASample() throws Exception {
    KeyLayout hashed = KeyLayout.parse("hash(user, bytes=2) + user");
    List<byte[]> points = SplitPoints.plan(hashed, 4, List.of());
    assertThat(points)
        .containsExactly(
            new byte[] {0x40, 0}, new byte[] {(byte) 0x80, 0}, new byte[] {(byte) 0xc0, 0});
    KeyLayout plain = KeyLayout.parse("user + n:long");
    assertThatThrownBy(() -> SplitPoints.plan(plain, 4, List.of()))
        .hasMessage(
            "this layout does not start with a salt or hash, so split points come from a sample of"
                + " new keys: 4 regions need at least 4 distinct keys, the sample has 0");
    List<byte[]> sample = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      sample.add(Bytes.toBytes("k" + (1000 + i)));
    }
    assertThat(SplitPoints.plan(plain, 4, sample))
        .extracting(Bytes::toString)
        .containsExactly("k1025", "k1050", "k1075");
  }

  static int[] regionCounts(List<byte[]> points, List<byte[]> keys) {
    int[] counts = new int[points.size() + 1];
    for (byte[] k : keys) {
      int region = 0;
      while (region < points.size() && Bytes.compareTo(k, points.get(region)) >= 0) {
        region++;
      }
      counts[region]++;
    }
    return counts;
  }

  static void assertSortedDistinct(List<byte[]> points) {
    for (int i = 1; i < points.size(); i++) {
      assertThat(Bytes.compareTo(points.get(i - 1), points.get(i))).isNegative();
    }
  }

  @Test
  void prefixSuccessor() {
    assertThat(KeyRange.prefixSuccessor(new byte[] {1, 2})).isEqualTo(new byte[] {1, 3});
    assertThat(KeyRange.prefixSuccessor(new byte[] {1, (byte) 0xFF})).isEqualTo(new byte[] {2});
    assertThat(KeyRange.prefixSuccessor(new byte[] {(byte) 0xFF})).isEmpty();
    assertThat(KeyRange.prefixSuccessor(new byte[0])).isEmpty();
  }
}
