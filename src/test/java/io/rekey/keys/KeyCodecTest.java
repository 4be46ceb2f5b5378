package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The parts' encodings tested the way HBase tests OrderedBytes: edge values, round trip, sort
 * order, guard bytes and golden bytes for the stored formats.
 */
class KeyCodecTest {
  static final HexFormat HEX = HexFormat.of();

  static byte[] encode(KeyLayout layout, Map<String, FieldValue> values) throws KeyReject {
    return layout.encode(values, null);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static final long[] LONG_EDGES = {
    0, 1, 9, 10, 99, 100, Integer.MAX_VALUE, 1_767_225_600_000L, Long.MAX_VALUE - 1, Long.MAX_VALUE
  };

  @Test
  void oneFieldReadsAsTheWholeDecodeReadsItAndChecksTheKeyOnlyUpToIt() throws Exception {
    KeyLayout text = KeyLayout.parse("text: ts:long + '_' + user + '_' + id:long");
    byte[] key = bytes("1767225600000_alice_42");
    for (String field : List.of("ts", "user", "id")) {
      assertThat(text.decodeField(key, field)).isEqualTo(text.decode(key).get(field));
    }
    // Only the parts up to the field are read: a bad tail does not stop the leading field.
    assertThat(text.decodeField(bytes("1767225600000_alice_x"), "ts"))
        .isEqualTo(FieldValue.of(1_767_225_600_000L));
    assertThatThrownBy(() -> text.decodeField(bytes("17x_alice_42"), "ts"))
        .isInstanceOf(KeyReject.class)
        .hasMessageContaining("field ts");
    assertThatThrownBy(() -> text.decodeField(key, "nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no field nope");
    KeyLayout salted = KeyLayout.parse("salt(16, user) + user + reverse_ts(ts)");
    byte[] saltedKey =
        salted.encode(
            Map.of("user", FieldValue.of(bytes("bob")), "ts", FieldValue.of(1_767_225_600_000L)),
            null);
    assertThat(salted.decodeField(saltedKey, "ts")).isEqualTo(salted.decode(saltedKey).get("ts"));
  }

  @Test
  void binaryLongsRoundTripAndSortNumerically() throws Exception {
    KeyLayout layout = KeyLayout.parse("n:long");
    List<byte[]> encoded = new ArrayList<>();
    for (long v : LONG_EDGES) {
      byte[] key = encode(layout, Map.of("n", FieldValue.of(v)));
      assertThat(key).hasSize(8).isEqualTo(Bytes.toBytes(v));
      assertThat(layout.decode(key)).containsEntry("n", FieldValue.of(v));
      encoded.add(key);
    }
    assertSorted(encoded);
    // Negative numbers round-trip too (they are stored as Bytes.toBytes does).
    byte[] min = encode(layout, Map.of("n", FieldValue.of(Long.MIN_VALUE)));
    assertThat(layout.decode(min)).containsEntry("n", FieldValue.of(Long.MIN_VALUE));
  }

  @Test
  void textFixedWidthNumbersSortNumerically() throws Exception {
    KeyLayout layout = KeyLayout.parse("text: n:long(19)");
    List<byte[]> encoded = new ArrayList<>();
    for (long v : LONG_EDGES) {
      byte[] key = encode(layout, Map.of("n", FieldValue.of(v)));
      assertThat(key).hasSize(19);
      assertThat(layout.decode(key)).containsEntry("n", FieldValue.of(v));
      encoded.add(key);
    }
    assertSorted(encoded);
    assertThat(
            new String(encode(KeyLayout.parse("text: n:int(10)"), Map.of("n", FieldValue.of(42)))))
        .isEqualTo("0000000042");
  }

  @Test
  void textNumbersOutOfRangeAreRejected() {
    KeyLayout padded = KeyLayout.parse("text: n:long(3)");
    assertReject(
        padded,
        Map.of("n", FieldValue.of(1000)),
        RejectReason.NUMBER_OUT_OF_RANGE,
        "field n is 1000, more than 3 digits");
    assertReject(
        padded,
        Map.of("n", FieldValue.of(-1)),
        RejectReason.NUMBER_OUT_OF_RANGE,
        "field n is -1; zero-padded numbers must not be negative");
    KeyLayout binaryInt = KeyLayout.parse("n:int");
    assertReject(
        binaryInt,
        Map.of("n", FieldValue.of(1L << 31)),
        RejectReason.NUMBER_OUT_OF_RANGE,
        "field n is 2147483648, beyond a 32-bit int");
    assertReject(
        binaryInt,
        Map.of("n", FieldValue.of("abc")),
        RejectReason.NOT_A_NUMBER,
        "field n is 'abc', not a decimal number");
    assertReject(binaryInt, Map.of(), RejectReason.FIELD_MISSING, "field n has no value");
  }

  @Test
  void plainDecimalMustBeCanonicalToRoundTrip() throws Exception {
    KeyLayout source = KeyLayout.parse("text: ts:long + '_' + user");
    assertThat(source.decode(bytes("123_u"))).containsEntry("ts", FieldValue.of(123));
    assertThat(source.decode(bytes("0_u"))).containsEntry("ts", FieldValue.of(0));
    assertThat(source.decode(bytes("-5_u"))).containsEntry("ts", FieldValue.of(-5));
    assertDecodeReject(
        source,
        "0123_u",
        RejectReason.NOT_CANONICAL,
        "field ts is '0123': its leading zeros would be lost; declare it with a width"
            + " (ts:long(4)) if all values have one, or keep it as text");
    assertDecodeReject(
        source, "12a_u", RejectReason.NOT_A_NUMBER, "field ts is '12a', not a decimal number");
    assertDecodeReject(source, "_u", RejectReason.NOT_A_NUMBER, "field ts is empty, not a number");
    assertDecodeReject(
        source,
        "99999999999999999999_u",
        RejectReason.NUMBER_OUT_OF_RANGE,
        "field ts is '99999999999999999999', beyond a 64-bit number");
    assertDecodeReject(
        source, "123u", RejectReason.SOURCE_MISMATCH, "no '_' after field ts (from byte 0)");
  }

  @Test
  void reverseTsSortsNewestFirstWithinAnEntity() throws Exception {
    for (String spec :
        new String[] {"user + reverse_ts(ts:long)", "text: user + '_' + reverse_ts(ts:long)"}) {
      KeyLayout layout = KeyLayout.parse(spec);
      List<byte[]> keys = new ArrayList<>();
      long[] times = {Long.MAX_VALUE, 1_767_225_600_000L, 1_767_225_599_999L, 1, 0};
      for (long ts : times) {
        byte[] key = encode(layout, Map.of("user", FieldValue.of("u1"), "ts", FieldValue.of(ts)));
        assertThat(layout.decode(key)).containsEntry("ts", FieldValue.of(ts));
        keys.add(key);
      }
      assertSorted(keys); // newest (largest ts) first
    }
    KeyLayout text = KeyLayout.parse("text: reverse_ts(ts:long)");
    assertThat(new String(encode(text, Map.of("ts", FieldValue.of(0)))))
        .isEqualTo("9223372036854775807");
    assertThat(new String(encode(text, Map.of("ts", FieldValue.of(Long.MAX_VALUE)))))
        .isEqualTo("0000000000000000000");
    assertReject(
        text,
        Map.of("ts", FieldValue.of(-1)),
        RejectReason.NUMBER_OUT_OF_RANGE,
        "field ts is -1; reverse_ts needs a timestamp of 0 or more");
  }

  @Test
  void escapedTextRoundTripsAndKeepsOrderWithSeparatorBytesAndBinary() throws Exception {
    // A variable-length field before another part in a binary key is 0x00-escaped.
    KeyLayout layout = KeyLayout.parse("name + n:int");
    String[] names = {
      "",
      "\0",
      "\0\0",
      "\0\u0001",
      "a",
      "a\0",
      "a\0b",
      "a\u0001",
      "ab",
      "\u00ff",
      "ü",
      "用户",
      "_",
      "user1",
      "user10"
    };
    List<byte[]> values = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (String n : names) {
      byte[] v = bytes(n);
      byte[] key = encode(layout, Map.of("name", FieldValue.of(v), "n", FieldValue.of(7)));
      Map<String, FieldValue> back = layout.decode(key);
      assertThat(back).containsEntry("name", FieldValue.of(v)).containsEntry("n", FieldValue.of(7));
      values.add(v);
      keys.add(key);
    }
    // Sorting the encoded keys sorts the values.
    List<byte[]> byKey = new ArrayList<>(keys);
    byKey.sort(Bytes.BYTES_COMPARATOR);
    List<byte[]> byValue = new ArrayList<>(values);
    byValue.sort(Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < byKey.size(); i++) {
      assertThat(layout.decode(byKey.get(i)).get("name")).isEqualTo(FieldValue.of(byValue.get(i)));
    }
    assertThat(
            HEX.formatHex(
                encode(layout, Map.of("name", FieldValue.of("a\0b"), "n", FieldValue.of(1)))))
        .isEqualTo("6100ff62" + "0001" + "00000001");
  }

  @Test
  void rawBinaryBytesSurviveAtTheEnd() throws Exception {
    KeyLayout layout = KeyLayout.parse("id:int + rest");
    byte[] rest = {0, (byte) 0xFF, 0, 1, (byte) 0x80};
    byte[] key = encode(layout, Map.of("id", FieldValue.of(5), "rest", FieldValue.of(rest)));
    assertThat(HEX.formatHex(key)).isEqualTo("00000005" + "00ff000180");
    assertThat(layout.decode(key)).containsEntry("rest", FieldValue.of(rest));
    assertThat(layout.decode(Bytes.toBytes(9))).containsEntry("rest", FieldValue.of(new byte[0]));
  }

  @Test
  void separatorInsideAValueIsRejectedNotCorrupted() throws Exception {
    KeyLayout layout = KeyLayout.parse("text: user + '_' + order");
    assertReject(
        layout,
        Map.of("user", FieldValue.of("a_b"), "order", FieldValue.of("o")),
        RejectReason.SEPARATOR_IN_VALUE,
        "field user is 'a_b', which contains the separator '_' that must end it");
    // A value ending in part of a multi-byte separator would read back wrong: rejected too.
    KeyLayout twoByte = KeyLayout.parse("text: user + '__' + order");
    assertReject(
        twoByte,
        Map.of("user", FieldValue.of("a_"), "order", FieldValue.of("o")),
        RejectReason.SEPARATOR_IN_VALUE,
        "field user is 'a_', which contains the separator '__' that must end it");
    // The last field may hold the separator: it runs to the end.
    byte[] key = encode(layout, Map.of("user", FieldValue.of("u"), "order", FieldValue.of("o_1")));
    assertThat(layout.decode(key)).containsEntry("order", FieldValue.of("o_1"));
  }

  @Test
  void guardBytesAroundEachPartStayIntact() throws Exception {
    String[] inner = {
      "n:long",
      "name",
      "reverse_ts(ts:long)",
      "salt(16, name)",
      "hash(name, bytes=3)",
      "n:int",
      "b:bytes(3)",
      "reverse(name)"
    };
    for (String part : inner) {
      KeyLayout layout = KeyLayout.parse("'\\xAA' + " + part + " + '\\xBB'");
      Map<String, FieldValue> values =
          Map.of(
              "n",
              FieldValue.of(12345),
              "name",
              FieldValue.of("x\0y"),
              "ts",
              FieldValue.of(42),
              "b",
              FieldValue.of(new byte[] {1, 2, 3}));
      byte[] key = encode(layout, values);
      assertThat(key[0]).as(part).isEqualTo((byte) 0xAA);
      assertThat(key[key.length - 1]).as(part).isEqualTo((byte) 0xBB);
      Map<String, FieldValue> back = layout.decode(key);
      for (String f : back.keySet()) {
        assertThat(back.get(f)).as(part + " " + f).isEqualTo(values.get(f));
      }
      byte[] broken = key.clone();
      broken[broken.length - 1] = (byte) 0xBC;
      assertThatThrownBy(() -> layout.decode(broken)).isInstanceOf(KeyReject.class);
    }
  }

  @Test
  void goldenSaltAndHashBytes() throws Exception {
    // Stored formats: these bytes may never change between versions. The MD5 values were checked
    // with an independent implementation (Python's hashlib) of the same input framing.
    KeyLayout salt16 = KeyLayout.parse("salt(16, user) + user");
    assertThat(HEX.formatHex(encode(salt16, Map.of("user", FieldValue.of("user001")))))
        .isEqualTo(goldenSaltHex("user001", 16) + HEX.formatHex(bytes("user001")));
    assertThat(encode(salt16, Map.of("user", FieldValue.of("user001")))[0]).isEqualTo((byte) 0x0b);
    assertThat(encode(salt16, Map.of("user", FieldValue.of("user002")))[0]).isEqualTo((byte) 0x0d);
    KeyLayout wholeKey = KeyLayout.parse("salt(256) + key");
    assertThat(wholeKey.encode(Map.of(), bytes("row-1"))[0]).isEqualTo((byte) 0x7e);
    KeyLayout textSalt = KeyLayout.parse("text: salt(100, user) + '_' + user");
    assertThat(new String(encode(textSalt, Map.of("user", FieldValue.of("user001")))))
        .isEqualTo("95_user001");
    KeyLayout md5 = KeyLayout.parse("hash(user, bytes=4) + user");
    assertThat(HEX.formatHex(encode(md5, Map.of("user", FieldValue.of("user001"))), 0, 4))
        .isEqualTo("332ec944");
    KeyLayout hexHash = KeyLayout.parse("text: hash(user, bytes=2) + user");
    assertThat(new String(encode(hexHash, Map.of("user", FieldValue.of("user001")))))
        .isEqualTo("332euser001");
    KeyLayout pair = KeyLayout.parse("hash_pair(a, b, bytes=4)");
    byte[] ab = encode(pair, Map.of("a", FieldValue.of("alice"), "b", FieldValue.of("bob")));
    byte[] ba = encode(pair, Map.of("a", FieldValue.of("bob"), "b", FieldValue.of("alice")));
    assertThat(ab).isEqualTo(ba);
    assertThat(HEX.formatHex(ab)).isEqualTo("44d95360");
  }

  /** The salt definition written out independently: murmur3_32 of 4-byte length + bytes, mod N. */
  static String goldenSaltHex(String value, int buckets) {
    byte[] v = bytes(value);
    byte[] input = new byte[4 + v.length];
    System.arraycopy(Bytes.toBytes(v.length), 0, input, 0, 4);
    System.arraycopy(v, 0, input, 4, v.length);
    int bucket = Integer.remainderUnsigned(Murmur3.hash32(input, 0), buckets);
    return String.format("%02x", bucket);
  }

  @Test
  void saltsSpreadKeysEvenly() throws Exception {
    KeyLayout layout = KeyLayout.parse("salt(16) + key");
    int[] counts = new int[16];
    for (int i = 0; i < 160_000; i++) {
      counts[layout.encode(Map.of(), bytes(Long.toString(1_767_225_600_000L + i)))[0]]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(9_500, 10_500);
    }
  }

  @Test
  void keyLongerThanHBaseAllowsIsRejected() {
    KeyLayout layout = KeyLayout.parse("v");
    byte[] big = new byte[40_000];
    assertReject(
        layout,
        Map.of("v", FieldValue.of(big)),
        RejectReason.KEY_TOO_LONG,
        "the new key would be 40000 bytes, over HBase's limit of 32767");
  }

  @Test
  void fixedBytesMustHaveTheirLength() {
    KeyLayout layout = KeyLayout.parse("b:bytes(4) + rest");
    assertReject(
        layout,
        Map.of("b", FieldValue.of(new byte[3]), "rest", FieldValue.of("")),
        RejectReason.WRONG_LENGTH,
        "field b has 3 bytes but is declared bytes(4)");
    assertDecodeReject(
        layout,
        "\u0001\u0002",
        RejectReason.SOURCE_MISMATCH,
        "field b needs 4 bytes at byte 0 but the key has 2 left");
  }

  @Test
  void leftoverBytesAndBadSaltsDoNotDecode() {
    assertDecodeReject(
        KeyLayout.parse("n:int"),
        "\u0000\u0000\u0000\u0001\u0002",
        RejectReason.SOURCE_MISMATCH,
        "the key has 1 byte(s) left after n:int");
    assertDecodeReject(
        KeyLayout.parse("salt(4) + rest"),
        "\u0009abc",
        RejectReason.SOURCE_MISMATCH,
        "salt(4) reads bucket 9, but there are only 4");
    assertDecodeReject(
        KeyLayout.parse("name + n:int"),
        "ab",
        RejectReason.SOURCE_MISMATCH,
        "field name is not terminated (no 0x00 0x01 after byte 0)");
    assertDecodeReject(
        KeyLayout.parse("name + n:int"),
        "a\u0000\u0005",
        RejectReason.SOURCE_MISMATCH,
        "field name has byte 0x00 followed by 0x05 at byte 2, which is neither an escaped 0x00 nor"
            + " the end of the value");
  }

  @Test
  void reverseRoundTrips() throws Exception {
    KeyLayout layout = KeyLayout.parse("text: reverse(phone)");
    byte[] key = encode(layout, Map.of("phone", FieldValue.of("13812345678")));
    assertThat(new String(key)).isEqualTo("87654321831");
    assertThat(layout.decode(key)).containsEntry("phone", FieldValue.of("13812345678"));
    KeyLayout numeric = KeyLayout.parse("text: reverse(n:long) + '_' + x");
    byte[] k2 = encode(numeric, Map.of("n", FieldValue.of(120), "x", FieldValue.of("y")));
    assertThat(new String(k2)).isEqualTo("021_y");
    assertThat(numeric.decode(k2)).containsEntry("n", FieldValue.of(120));
  }

  static void assertSorted(List<byte[]> keys) {
    for (int i = 1; i < keys.size(); i++) {
      assertThat(Bytes.compareTo(keys.get(i - 1), keys.get(i)))
          .as("key %d sorts before key %d", i - 1, i)
          .isNegative();
    }
  }

  static void assertReject(
      KeyLayout layout, Map<String, FieldValue> values, RejectReason reason, String detail) {
    assertThatThrownBy(() -> layout.encode(values, null))
        .isInstanceOfSatisfying(
            KeyReject.class,
            r -> {
              assertThat(r.reason()).isEqualTo(reason);
              assertThat(r.detail()).isEqualTo(detail);
            });
  }

  static void assertDecodeReject(KeyLayout layout, String key, RejectReason reason, String detail) {
    assertThatThrownBy(() -> layout.decode(key.getBytes(StandardCharsets.ISO_8859_1)))
        .isInstanceOfSatisfying(
            KeyReject.class,
            r -> {
              assertThat(r.reason()).isEqualTo(reason);
              assertThat(r.detail()).isEqualTo(detail);
            });
  }
}
