package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.apache.hadoop.hbase.util.Bytes;

/** Round trip, order and injectivity over random inputs. */
class KeyLayoutPropertiesTest {
  static final String SOURCE = "text: ts:long + '_' + user + '_' + order";
  static final List<KeyMapping> MAPPINGS =
      List.of(
          KeyMapping.parse(SOURCE, "salt(16, user) + user + reverse_ts(ts) + order"),
          KeyMapping.parse(
              SOURCE, "text: salt(64, user) + '_' + user + '_' + reverse_ts(ts) + '_' + order"),
          KeyMapping.parse(SOURCE, "hash(user, bytes=2) + reverse(user) + ts + order"),
          KeyMapping.parse(SOURCE, "order + user + reverse_ts(ts)"));

  static final KeyLayout ESCAPED = KeyLayout.parse("name + n:int");

  @Provide
  Arbitrary<String> users() {
    // No '_' (the old key's separator); anything else, including NUL, 0xFF and non-ASCII.
    return Arbitraries.strings()
        .withCharRange('\u0000', '\u00ff')
        .withChars('用', '户', 'é')
        .excludeChars('_')
        .ofMinLength(0)
        .ofMaxLength(12);
  }

  @Provide
  Arbitrary<String> orders() {
    return Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(12);
  }

  static byte[] oldKey(long ts, String user, String order) {
    return (ts + "_" + user + "_" + order).getBytes(StandardCharsets.UTF_8);
  }

  @Property(tries = 300)
  void everyInjectiveMappingRoundTrips(
      @ForAll @LongRange(min = 0) long ts,
      @ForAll("users") String user,
      @ForAll("orders") String order)
      throws Exception {
    byte[] old = oldKey(ts, user, order);
    for (KeyMapping m : MAPPINGS) {
      byte[] key = m.map(old, ColumnValues.NONE);
      Map<String, FieldValue> back = m.target().decode(key);
      assertThat(back.get("ts")).isEqualTo(FieldValue.of(ts));
      assertThat(back.get("user")).isEqualTo(FieldValue.of(user));
      assertThat(back.get("order")).isEqualTo(FieldValue.of(order));
      // And back to the very same old key through the source layout.
      assertThat(m.source().encode(back, null)).isEqualTo(old);
    }
  }

  @Property(tries = 300)
  void differentOldKeysNeverShareANewKey(
      @ForAll @LongRange(min = 0, max = 5) long ts1,
      @ForAll @LongRange(min = 0, max = 5) long ts2,
      @ForAll("users") String user1,
      @ForAll("users") String user2,
      @ForAll("orders") String order1,
      @ForAll("orders") String order2)
      throws Exception {
    byte[] a = oldKey(ts1, user1, order1);
    byte[] b = oldKey(ts2, user2, order2);
    for (KeyMapping m : MAPPINGS) {
      assertThat(m.injectivity().injective()).isTrue();
      byte[] ka = m.map(a, ColumnValues.NONE);
      byte[] kb = m.map(b, ColumnValues.NONE);
      assertThat(Bytes.equals(ka, kb)).isEqualTo(Bytes.equals(a, b));
    }
  }

  @Property(tries = 500)
  void escapedBytesKeepByteOrder(@ForAll @Size(max = 10) byte[] x, @ForAll @Size(max = 10) byte[] y)
      throws Exception {
    byte[] kx = ESCAPED.encode(Map.of("name", FieldValue.of(x), "n", FieldValue.of(1)), null);
    byte[] ky = ESCAPED.encode(Map.of("name", FieldValue.of(y), "n", FieldValue.of(0)), null);
    int values = Integer.signum(Bytes.compareTo(x, y));
    if (values != 0) {
      assertThat(Integer.signum(Bytes.compareTo(kx, ky))).isEqualTo(values);
    }
    assertThat(ESCAPED.decode(kx).get("name")).isEqualTo(FieldValue.of(x));
  }

  @Property(tries = 500)
  void aPrefixScanNeverReturnsAnExtendedValue(
      @ForAll @Size(max = 8) byte[] x, @ForAll @Size(min = 1, max = 4) byte[] extra)
      throws Exception {
    byte[] longer = Bytes.add(x, extra);
    byte[] key = ESCAPED.encode(Map.of("name", FieldValue.of(longer), "n", FieldValue.of(5)), null);
    List<KeyRange> ranges = ScanPlanner.plan(ESCAPED, Map.of("name", FieldValue.of(x)), Map.of());
    assertThat(ranges).noneMatch(r -> r.contains(key));
    byte[] same = ESCAPED.encode(Map.of("name", FieldValue.of(x), "n", FieldValue.of(5)), null);
    assertThat(ranges).anyMatch(r -> r.contains(same));
  }

  @Property(tries = 500)
  void numbersSortNumericallyAndReversedTimestampsNewestFirst(
      @ForAll @LongRange(min = 0) long a, @ForAll @LongRange(min = 0) long b) throws Exception {
    KeyLayout binary = KeyLayout.parse("n:long");
    KeyLayout text = KeyLayout.parse("text: n:long(19)");
    KeyLayout reversed = KeyLayout.parse("reverse_ts(n:long)");
    KeyLayout reversedText = KeyLayout.parse("text: reverse_ts(n:long)");
    int natural = Long.signum(Long.compare(a, b));
    for (KeyLayout layout : List.of(binary, text)) {
      assertThat(Integer.signum(Bytes.compareTo(enc(layout, a), enc(layout, b))))
          .isEqualTo(natural);
    }
    for (KeyLayout layout : List.of(reversed, reversedText)) {
      assertThat(Integer.signum(Bytes.compareTo(enc(layout, a), enc(layout, b))))
          .isEqualTo(-natural);
      assertThat(layout.decode(enc(layout, a)).get("n")).isEqualTo(FieldValue.of(a));
    }
  }

  static byte[] enc(KeyLayout layout, long n) throws KeyReject {
    return layout.encode(Map.of("n", FieldValue.of(n)), null);
  }
}
