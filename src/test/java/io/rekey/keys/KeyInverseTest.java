package io.rekey.keys;

import static io.rekey.keys.KeyMappingTest.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Mappings run backwards: every old key comes back from its new key, or the mapping is refused. */
class KeyInverseTest {
  private static void roundTrips(String source, String target, List<byte[]> oldKeys)
      throws KeyReject {
    KeyMapping m = KeyMapping.parse(source, target);
    KeyInverse inverse = m.inverse();
    for (byte[] old : oldKeys) {
      assertThat(inverse.oldKey(m.map(old, ColumnValues.NONE))).isEqualTo(old);
    }
  }

  @Test
  void theDesignsThatKeepEveryFieldMapBackToTheVeryOldKey() throws Exception {
    List<byte[]> messages =
        List.of(b("1616124723000_user001_order001"), b("0_u_o"), b("1767225600000_al ice_x_y"));
    roundTrips(
        KeyMappingTest.MESSAGES_SOURCE, "salt(16, user) + user + reverse_ts(ts) + order", messages);
    roundTrips(
        KeyMappingTest.MESSAGES_SOURCE,
        "text: salt(16, user) + '_' + user + '_' + reverse_ts(ts) + '_' + order",
        messages);
    roundTrips(
        "text: metric + '|' + ts:long + '|' + device",
        "metric + reverse_ts(ts) + device",
        List.of(b("cpu.load|1767225600000|dev42"), b("m|1|")));
    roundTrips("text: phone", "text: reverse(phone)", List.of(b("13812345678"), b("")));
    byte[] binary = new byte[16];
    binary[7] = 42;
    binary[15] = 7;
    roundTrips(
        "userId:long + ts:long",
        "hash(userId, bytes=2) + userId + reverse_ts(ts)",
        List.of(binary));
    // A new key that keeps the whole old key gives it back, whatever the source's shape.
    roundTrips(
        KeyMappingTest.MESSAGES_SOURCE, "salt(8) + key", List.of(b("1_a_b"), b("12_x_\u0000")));
  }

  /**
   * A key bound to a column: the rows a target holds read back to the source rows they were made
   * of, the column's value taken from the new key; the plain inverse still refuses such a mapping,
   * and so does this one where the new key drops a field of the old.
   */
  @Test
  void aNewKeyBoundToAColumnGivesBackItsRowWhenItKeepsTheOldKeysFields() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            "text: ts:long + '_' + user ; sender = m:sender",
            "salt(4, sender) + sender + user + reverse_ts(ts)");
    byte[] old = b("1616124723000_user001");
    byte[] written = m.map(old, (f, q) -> b("alice"));
    assertThat(m.rowsBack().oldKey(written)).isEqualTo(old);
    byte[] otherBucket = written.clone();
    otherBucket[0] = (byte) ((otherBucket[0] + 1) % 4);
    assertThatThrownBy(() -> m.rowsBack().oldKey(otherBucket)).isInstanceOf(KeyReject.class);
    assertThatThrownBy(m::inverse).hasMessageContaining("binds columns");
    assertThatThrownBy(
            () ->
                KeyMapping.parse("text: ts:long + '_' + user ; sender = m:sender", "sender + user")
                    .rowsBack())
        .hasMessageContaining("does not keep ts");
  }

  @Test
  void aNewKeyTheMappingNeverWritesIsRejectedNotGuessed() throws Exception {
    KeyMapping m =
        KeyMapping.parse(
            KeyMappingTest.MESSAGES_SOURCE, "salt(16, user) + user + reverse_ts(ts) + order");
    byte[] written = m.map(b("1616124723000_user001_order001"), ColumnValues.NONE);
    byte[] otherBucket = written.clone();
    otherBucket[0] = (byte) ((otherBucket[0] + 1) % 16);
    assertThatThrownBy(() -> m.inverse().oldKey(otherBucket))
        .isInstanceOf(KeyReject.class)
        .hasMessageContaining("which maps to another new key")
        .satisfies(
            e -> assertThat(((KeyReject) e).reason()).isEqualTo(RejectReason.SOURCE_MISMATCH));
    assertThatThrownBy(() -> m.inverse().oldKey(b("x")))
        .isInstanceOf(KeyReject.class)
        .satisfies(
            e -> assertThat(((KeyReject) e).reason()).isEqualTo(RejectReason.SOURCE_MISMATCH));
  }

  @Test
  void aMappingThatLosesWhatTheOldKeyIsMadeOfHasNoInverse() {
    assertThatThrownBy(
            () ->
                KeyMapping.parse(
                        "text: user_a + '_' + user_b + '_' + ts:long + '_' + msgid",
                        "hash_pair(user_a, user_b, bytes=16) + reverse_ts(ts) + msgid")
                    .inverse())
        .isInstanceOf(LayoutException.class)
        .hasMessageContaining("target key")
        .hasMessageContaining("does not keep user_a, user_b (only hashed or left out)");
    assertThatThrownBy(() -> KeyMapping.parse("text: salt(4) + '_' + id", "id").inverse())
        .isInstanceOf(LayoutException.class)
        .hasMessageContaining("does not keep key (the whole old key");
    assertThatThrownBy(
            () ->
                KeyMapping.parse(
                        "text: ts:long + '_' + user + '_' + msgid ; sender = m:sender",
                        "sender + reverse_ts(ts) + key")
                    .inverse())
        .isInstanceOf(LayoutException.class)
        .hasMessageContaining("source key")
        .hasMessageContaining("binds columns");
  }
}
