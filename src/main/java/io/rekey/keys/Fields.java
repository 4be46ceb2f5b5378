package io.rekey.keys;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The values a target key is built from: named fields and the whole old key. */
final class Fields {
  private final Map<String, FieldValue> values;
  private final byte[] oldKey;

  Fields(Map<String, FieldValue> values, byte[] oldKey) {
    this.values = values;
    this.oldKey = oldKey;
  }

  byte[] oldKey() {
    return oldKey;
  }

  FieldValue require(String name) throws KeyReject {
    FieldValue v = values.get(name);
    if (v == null) {
      if (name.equals(KeyLayout.OLD_KEY) && oldKey != null) {
        return FieldValue.of(oldKey);
      }
      throw new KeyReject(RejectReason.FIELD_MISSING, "field " + name + " has no value");
    }
    return v;
  }

  /** The field as a number: numbers as they are, text when it is a canonical decimal. */
  long number(String name) throws KeyReject {
    FieldValue v = require(name);
    if (v instanceof FieldValue.LongValue l) {
      return l.value();
    }
    byte[] b = ((FieldValue.BytesValue) v).raw();
    return Codec.parseDecimal(b, 0, b.length, 0, "field " + name);
  }

  /** The field as bytes: bytes as they are, numbers as decimal text. */
  byte[] bytes(String name) throws KeyReject {
    FieldValue v = require(name);
    if (v instanceof FieldValue.BytesValue b) {
      return b.raw();
    }
    return Long.toString(((FieldValue.LongValue) v).value()).getBytes(StandardCharsets.US_ASCII);
  }
}
