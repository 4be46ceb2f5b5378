package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every parse error names the problem and the column; valid specs read back canonically. */
class LayoutParserTest {
  static final Map<String, FieldType> SOURCE =
      Map.of("ts", FieldType.LONG, "user", FieldType.STR, "order", FieldType.STR);

  static void fails(String spec, String message) {
    assertThatThrownBy(() -> KeyLayout.parse(spec))
        .isInstanceOf(LayoutException.class)
        .hasMessage(message);
  }

  static void failsAsTarget(String spec, String message) {
    assertThatThrownBy(() -> KeyLayout.parse(spec, SOURCE))
        .isInstanceOf(LayoutException.class)
        .hasMessage(message);
  }

  @Test
  void canonicalFormsReadBack() {
    String[] specs = {
      "text: ts:long + '_' + user + '_' + order",
      "salt(16, user) + user + reverse_ts(ts) + order",
      "hash(userId, bytes=2) + userId:long + reverse_ts(ts)",
      "hash(bytes=4, algo=murmur3) + key",
      "text: reverse(phone)",
      "hash_pair(user_a, user_b, bytes=16) + reverse_ts(ts) + msgid",
      "text: ts:long(13) + '\\x00' + id:int(5)",
      "raw:bytes(4) + rest ; sender = m:sender, n:long = m:count"
    };
    for (String spec : specs) {
      KeyLayout layout = KeyLayout.parse(spec);
      assertThat(KeyLayout.parse(layout.canonicalSpec()).canonicalSpec())
          .as(spec)
          .isEqualTo(layout.canonicalSpec());
    }
    assertThat(KeyLayout.parse("salt(16)+user+reverse_ts(ts)").canonicalSpec())
        .isEqualTo("salt(16) + user + reverse_ts(ts)");
  }

  @Test
  void aSourceKeyThatNamesAFieldTwiceIsRefusedAtTheSecondPlace() {
    // The second sender would overwrite the first: old keys that differ in one of them would merge.
    fails(
        "text: ts:long + '_' + sender + '_' + sender",
        "field sender is named twice in the source key (first at column 23); each part of the old"
            + " key needs a name of its own, e.g. sender2 (column 38)");
    fails(
        "text: reverse(phone) + '_' + phone",
        "field phone is named twice in the source key (first at column 7); each part of the old"
            + " key needs a name of its own, e.g. phone2 (column 30)");
    // A target may use a source field as often as it likes.
    assertThat(KeyLayout.parse("salt(4, user) + user + '_' + user", SOURCE).canonicalSpec())
        .contains("user + '_' + user");
  }

  @Test
  void modes() {
    assertThat(KeyLayout.parse("text: a + '_' + b").mode()).isEqualTo(KeyMode.TEXT);
    assertThat(KeyLayout.parse("binary: a + b").mode()).isEqualTo(KeyMode.BINARY);
    assertThat(KeyLayout.parse("a + b").mode()).isEqualTo(KeyMode.BINARY);
  }

  @Test
  void columnBindingsAcceptQualifiersWithPunctuation() {
    KeyLayout layout = KeyLayout.parse("key ; sender = m:sender-id.v2, n:long = d:count");
    assertThat(layout.columns()).hasSize(2);
    assertThat(layout.columns().get(0).qualifier()).isEqualTo("sender-id.v2");
    assertThat(layout.columns().get(1).field().type()).isEqualTo(FieldType.LONG);
  }

  @Test
  void saltBucketsOutOfRange() {
    failsAsTarget("salt(0, user)", "salt buckets is 0 but must be 1..256 (column 6)");
    failsAsTarget("salt(257)", "salt buckets is 257 but must be 1..256 (column 6)");
    failsAsTarget("salt(x)", "salt buckets is 'x' but must be a number (column 6)");
  }

  @Test
  void unknownFieldsListTheKnownOnes() {
    failsAsTarget(
        "salt(16, sendr) + user",
        "unknown field 'sendr'; known fields: order, ts, user (column 10)");
    failsAsTarget("user + tss", "unknown field 'tss'; known fields: order, ts, user (column 8)");
    failsAsTarget(
        "reverse_ts(when)", "unknown field 'when'; known fields: order, ts, user (column 12)");
    failsAsTarget(
        "hash_pair(user, nobody)",
        "unknown field 'nobody'; known fields: order, ts, user (column 17)");
  }

  @Test
  void syntaxErrors() {
    fails("", "the key spec is empty; write parts joined by '+', e.g. user + reverse_ts(ts)");
    fails(
        "a + ",
        "the spec ends where a part (a field, a 'literal' or a function) should be (column 5)");
    fails("a b", "expected '+' between parts or ';' before column bindings, found 'b' (column 3)");
    fails("a + #", "unexpected '#' (column 5)");
    fails("a + '_", "the literal starting here has no closing quote (column 5)");
    fails("a + ''", "a literal must not be empty (column 5)");
    fails("a + '\\q'", "unknown escape '\\q' in a literal; use \\xNN, \\\\ or \\' (column 5)");
    fails("a + '\\xZ1'", "\\x in a literal needs two hex digits, found 'Z1' (column 5)");
    fails(
        "pepper(3)",
        "unknown function 'pepper'; the functions are salt, hash, hash_pair, reverse, reverse_ts (column 1)");
    fails("a:float", "unknown type 'float'; the types are str, long, int, bytes(n) (column 3)");
    fails("a:bytes", "bytes needs a length: a:bytes(4) (column 3)");
    fails("a:str(3)", "str takes no width; use bytes(n) for fixed length (column 7)");
    fails(
        "ts:long(13)",
        "ts:long(13): a digit width applies to text keys; binary keys write longs as 8 bytes and"
            + " ints as 4 (column 9)");
    fails(
        "salt + a",
        "salt is a function and needs its arguments in parentheses, e.g. salt(...) (column 1)");
    fails("hash(a)", "hash needs its length: hash(a, bytes=2) (column 1)");
    fails("hash(a, bytes=17)", "hash bytes is 17 but must be 1..16 (column 15)");
    fails(
        "hash(a, bytes=8, algo=murmur3)",
        "hash bytes is 8 but murmur3 gives at most 4; use algo=md5 for more (column 1)");
    fails(
        "hash(a, bytes=2, algo=sha1)",
        "hash algo is 'sha1' but must be md5 or murmur3 (column 23)");
    fails("hash(a, size=2)", "hash takes bytes= and algo=, not 'size=' (column 9)");
    fails("hash_pair(a, b, size=2)", "hash_pair takes bytes=k, not 'size' (column 17)");
    fails(
        "reverse_ts(ts:str)",
        "reverse_ts needs a number but ts is declared str; declare it ts:long in the source key (column 12)");
    fails("reverse(b:bytes(2))", "reverse works on text and numbers, not bytes() (column 9)");
    fails("text + a", "'text' is a reserved word; name the field differently (column 1)");
  }

  @Test
  void layoutErrors() {
    fails(
        "text: user + reverse_ts(ts)",
        "user has no fixed width and is followed by reverse_ts(ts): put a separator literal"
            + " between them (e.g. '_'), give it a width (ts:long(13)), or use a binary layout"
            + " (column 14)");
    fails(
        "text: ts:long + '1' + user",
        "ts:long is a decimal number, so the separator after it must not start with a digit or"
            + " '-' (column 17)");
    fails(
        "ts:long + '_' + ts:str",
        "field ts is named twice in the source key (first at column 1); each part of the old key"
            + " needs a name of its own, e.g. ts2 (column 17)");
    fails(
        "user ; user = m:u",
        "field user is in the key already; a column cannot define it too (column 8)");
  }

  @Test
  void mappingErrorsNameTheSide() {
    assertThatThrownBy(() -> KeyMapping.parse("text: ts:long + '_' + user", "salt(0, user)"))
        .hasMessage("target key: salt buckets is 0 but must be 1..256 (column 6)");
    assertThatThrownBy(() -> KeyMapping.parse("text: ts:long + + user", "user"))
        .hasMessage(
            "source key: expected a part (a field, a 'literal' or a function), found '+' (column 17)");
    assertThatThrownBy(() -> KeyMapping.parse("text: key + '_' + user", "user"))
        .hasMessage(
            "source key: 'key' is the whole old key and always available; name this field"
                + " differently");
    assertThatThrownBy(() -> KeyMapping.parse("user ; s = m:s", "s ; t = m:t"))
        .hasMessage(
            "target key: column bindings (after ';') belong in the source key spec (column 3)");
  }
}
