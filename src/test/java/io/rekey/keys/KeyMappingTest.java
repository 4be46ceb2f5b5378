package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The README's example designs, end to end: old key → fields → new key → fields. */
class KeyMappingTest {
  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static final String MESSAGES_SOURCE = "text: ts:long + '_' + user + '_' + order";

  @Test
  void timeFirstKeyToSaltedUserKeyNewestFirst() throws Exception {
    KeyMapping m =
        KeyMapping.parse(MESSAGES_SOURCE, "salt(16, user) + user + reverse_ts(ts) + order");
    byte[] key = m.map(b("1616124723000_user001_order001"), ColumnValues.NONE);
    assertThat(HexFormat.of().formatHex(key))
        .isEqualTo(
            "0b"
                + HexFormat.of().formatHex(b("user001"))
                + "0001"
                + HexFormat.of().formatHex(Bytes.toBytes(Long.MAX_VALUE - 1616124723000L))
                + HexFormat.of().formatHex(b("order001")));
    assertThat(m.target().decode(key))
        .containsEntry("user", FieldValue.of("user001"))
        .containsEntry("ts", FieldValue.of(1616124723000L))
        .containsEntry("order", FieldValue.of("order001"));
    assertThat(m.injectivity().injective()).isTrue();
    assertThat(m.target().isDecodable()).isTrue();
    // All of one user's messages share one salt bucket.
    byte[] other = m.map(b("1700000000000_user001_order999"), ColumnValues.NONE);
    assertThat(other[0]).isEqualTo(key[0]);
  }

  @Test
  void textTargetKeepsItReadable() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            MESSAGES_SOURCE,
            "text: salt(16, user) + '_' + user + '_' + reverse_ts(ts) + '_' + order");
    assertThat(new String(m.map(b("1616124723000_user001_order001"), ColumnValues.NONE)))
        .isEqualTo("11_user001_9223370420730052807_order001");
  }

  @Test
  void metricKeyToMetricNewestFirstByDevice() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            "text: metric + '|' + ts:long + '|' + device", "metric + reverse_ts(ts) + device");
    byte[] key = m.map(b("cpu.load|1767225600000|dev42"), ColumnValues.NONE);
    assertThat(m.target().decode(key)).containsEntry("device", FieldValue.of("dev42"));
    assertThat(m.injectivity().injective()).isTrue();
  }

  @Test
  void phoneNumberReversed() throws Exception {
    KeyMapping m = KeyMapping.parse("text: phone", "text: reverse(phone)");
    assertThat(new String(m.map(b("13812345678"), ColumnValues.NONE))).isEqualTo("87654321831");
    assertThat(m.injectivity().injective()).isTrue();
  }

  @Test
  void binaryUserIdHashedPrefix() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            "userId:long + ts:long", "hash(userId, bytes=2) + userId + reverse_ts(ts)");
    byte[] old = Bytes.add(Bytes.toBytes(42L), Bytes.toBytes(1767225600000L));
    byte[] key = m.map(old, ColumnValues.NONE);
    assertThat(key).hasSize(2 + 8 + 8);
    assertThat(m.target().decode(key))
        .containsEntry("userId", FieldValue.of(42L))
        .containsEntry("ts", FieldValue.of(1767225600000L));
    assertThat(m.target().isDecodable()).isTrue();
    assertThat(m.injectivity().injective()).isTrue();
  }

  @Test
  void conversationKeyIsOrderIndependentButNotInjective() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            "text: user_a + '_' + user_b + '_' + ts:long + '_' + msgid",
            "hash_pair(user_a, user_b, bytes=16) + reverse_ts(ts) + msgid");
    byte[] ab = m.map(b("alice_bob_1767225600000_m1"), ColumnValues.NONE);
    byte[] ba = m.map(b("bob_alice_1767225600000_m1"), ColumnValues.NONE);
    assertThat(ab).isEqualTo(ba);
    Injectivity inj = m.injectivity();
    assertThat(inj.injective()).isFalse();
    assertThat(inj.lostFields()).containsExactly("user_a", "user_b");
    assertThat(inj.explanation())
        .isEqualTo(
            "no: the new key does not keep user_a, user_b (only hashed or left out), so old keys"
                + " that differ only there give the same new key");
    assertThat(m.target().isDecodable()).isFalse();
    assertThat(m.target().unrecoverableFields()).containsExactly("user_a", "user_b");
  }

  @Test
  void indexKeyFromAColumn() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            "text: ts:long + '_' + user + '_' + msgid ; sender = m:sender",
            "sender + reverse_ts(ts) + key");
    byte[] old = b("1767225600000_user7_abc");
    byte[] key =
        m.map(
            old,
            (family, qualifier) ->
                family.equals("m") && qualifier.equals("sender") ? b("bob") : null);
    Map<String, FieldValue> back = m.target().decode(key);
    assertThat(back)
        .containsEntry("sender", FieldValue.of("bob"))
        .containsEntry("ts", FieldValue.of(1767225600000L))
        .containsEntry("key", FieldValue.of(old));
    assertThat(m.injectivity().explanation()).isEqualTo("yes: the new key keeps the whole old key");
    assertThatThrownBy(() -> m.map(old, ColumnValues.NONE))
        .isInstanceOfSatisfying(
            KeyReject.class,
            r -> {
              assertThat(r.reason()).isEqualTo(RejectReason.FIELD_MISSING);
              assertThat(r.detail())
                  .isEqualTo("column m:sender (field sender) is missing in this row");
            });
  }

  @Test
  void oldKeysOfAnotherShapeAreRejectedWithTheReason() {
    KeyMapping m = KeyMapping.parse(MESSAGES_SOURCE, "user + reverse_ts(ts) + order");
    assertThatThrownBy(() -> m.map(b("garbage"), ColumnValues.NONE))
        .isInstanceOfSatisfying(
            KeyReject.class, r -> assertThat(r.reason()).isEqualTo(RejectReason.SOURCE_MISMATCH));
    assertThatThrownBy(() -> m.map(b("abc_user_order"), ColumnValues.NONE))
        .isInstanceOfSatisfying(
            KeyReject.class, r -> assertThat(r.reason()).isEqualTo(RejectReason.NOT_A_NUMBER));
  }

  @Test
  void droppingAFieldIsNotInjective() {
    KeyMapping m = KeyMapping.parse(MESSAGES_SOURCE, "user + reverse_ts(ts)");
    assertThat(m.injectivity().injective()).isFalse();
    assertThat(m.injectivity().lostFields()).containsExactly("order");
  }

  @Test
  void textSourceNumbersCanBecomeBinaryNumbers() throws Exception {
    KeyMapping m = KeyMapping.parse("text: id + '_' + rest", "id:long + rest");
    assertThat(m.map(b("42_x"), ColumnValues.NONE))
        .isEqualTo(Bytes.add(Bytes.toBytes(42L), b("x")));
    assertThatThrownBy(() -> m.map(b("4x_y"), ColumnValues.NONE))
        .isInstanceOfSatisfying(
            KeyReject.class, r -> assertThat(r.reason()).isEqualTo(RejectReason.NOT_A_NUMBER));
  }

  @Test
  void mappingSurvivesJavaSerializationAsSparkShipsIt() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            MESSAGES_SOURCE + " ; sender = m:sender",
            "salt(16, user) + user + reverse_ts(ts) + order + '\\x00' + sender");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(m);
    }
    KeyMapping copy;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (KeyMapping) in.readObject();
    }
    ColumnValues cols = (f, q) -> b("bob");
    byte[] old = b("1616124723000_user001_order001");
    assertThat(copy.map(old, cols)).isEqualTo(m.map(old, cols));
    assertThat(copy.target().canonicalSpec()).isEqualTo(m.target().canonicalSpec());
  }
}
