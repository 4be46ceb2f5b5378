package io.rekey.stream.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.RejectReason;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Where a stream puts a source row whose new key is bound to its sender, from the sender now and
 * the keys the key map records: without a cluster.
 */
class BoundRowsTest {
  private static final KeyMapping MAPPING =
      KeyMapping.parse(
          "text: ts:long + '_' + user ; sender = m:sender", "sender + '#' + user + '#' + ts:long");
  private static final BoundRows ROWS = new BoundRows(MAPPING, "p", List.of(Bytes.toBytes("m")));
  private static final byte[] ROW = Bytes.toBytes("5_alice");

  private static ColumnValues sender(String s) {
    return (f, q) -> f.equals("m") && q.equals("sender") && s != null ? Bytes.toBytes(s) : null;
  }

  private static byte[] key(String sender) {
    try {
      return MAPPING.map(ROW, sender(sender));
    } catch (io.rekey.keys.KeyReject e) {
      throw new AssertionError(e);
    }
  }

  private static String s(byte[] key) {
    return Bytes.toStringBinary(key);
  }

  private static List<String> strings(List<byte[]> keys) {
    return keys.stream().map(Bytes::toStringBinary).toList();
  }

  @Test
  void aRowHeldUnderItsKeyNowStaysThere() {
    BoundRows.Outcome o = ROWS.outcome(ROW, sender("bob"), List.of(key("bob")));
    assertThat(o)
        .isInstanceOfSatisfying(
            BoundRows.Stay.class, s -> assertThat(s(s.key())).isEqualTo(s(key("bob"))));
    assertThat(o.unrefuse()).isFalse();
  }

  @Test
  void aRowWhoseSenderChangedMovesAndEveryOtherKeyItIsHeldUnderIsRetired() {
    // Held under two keys (a seed that found it twice): both retired but the one it moves to.
    BoundRows.Outcome o = ROWS.outcome(ROW, sender("carol"), List.of(key("bob"), key("carol")));
    assertThat(o)
        .isInstanceOfSatisfying(
            BoundRows.Move.class,
            m -> {
              assertThat(s(m.key())).isEqualTo(s(key("carol")));
              assertThat(strings(m.retired())).containsExactly(s(key("bob")));
            });
    // Back: the key it left is where it goes again.
    BoundRows.Outcome back = ROWS.outcome(ROW, sender("bob"), List.of(key("carol")));
    assertThat(((BoundRows.Move) back).key()).isEqualTo(key("bob"));
    assertThat(strings(((BoundRows.Move) back).retired())).containsExactly(s(key("carol")));
  }

  @Test
  void aRowTheTargetDoesNotHoldIsWrittenWholeAndARefusedOnesRefusalIsTakenBack() {
    BoundRows.Outcome fresh = ROWS.outcome(ROW, sender("bob"), null);
    assertThat(fresh).isInstanceOf(BoundRows.Move.class);
    assertThat(((BoundRows.Move) fresh).retired()).isEmpty();
    assertThat(fresh.unrefuse()).isFalse();
    BoundRows.Outcome placedAgain = ROWS.outcome(ROW, sender("bob"), List.of());
    assertThat(placedAgain).isInstanceOf(BoundRows.Move.class);
    assertThat(placedAgain.unrefuse()).isTrue();
  }

  @Test
  void aRowWithoutASenderIsUnplacedWithTheLayoutsReasonAndTheKeysItIsHeldUnder() {
    BoundRows.Outcome o = ROWS.outcome(ROW, sender(null), List.of(key("bob")));
    assertThat(o)
        .isInstanceOfSatisfying(
            BoundRows.Unplaced.class,
            u -> {
              assertThat(u.reject().reason()).isEqualTo(RejectReason.FIELD_MISSING);
              assertThat(strings(u.held())).containsExactly(s(key("bob")));
              assertThat(u.unrefuseIfGone()).isFalse();
            });
    BoundRows.Outcome refusedBefore = ROWS.outcome(ROW, sender(null), List.of());
    assertThat(((BoundRows.Unplaced) refusedBefore).unrefuseIfGone()).isTrue();
    assertThat(refusedBefore.unrefuse()).isFalse(); // only once it is found gone
  }
}
