package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;

/** {@code reverse(field)}: the field's text backwards, e.g. a phone number or an IP. */
record ReversePart(FieldSpec field, int column) implements Part.OneField {
  @Override
  public int fixedLength(KeyMode mode) {
    return -1;
  }

  @Override
  public String describe() {
    return "reverse(" + field.name() + ")";
  }

  @Override
  public void encode(Fields fields, KeyMode mode, Part.Ending ending, ByteArrayOutputStream out)
      throws KeyReject {
    byte[] v = fields.bytes(field.name()).clone();
    reverse(v);
    ending.write(v, describe(), out);
  }

  @Override
  public int decode(
      byte[] key, int pos, KeyMode mode, Part.Ending ending, Map<String, FieldValue> out)
      throws KeyReject {
    ByteArrayOutputStream escaped = new ByteArrayOutputStream();
    int[] span = ending.read(key, pos, describe(), escaped);
    byte[] v = span[0] < 0 ? escaped.toByteArray() : Arrays.copyOfRange(key, span[0], span[1]);
    reverse(v);
    if (field.type().isNumber()) {
      out.put(field.name(), FieldValue.of(Codec.parseDecimal(v, 0, v.length, 0, describe())));
    } else {
      out.put(field.name(), FieldValue.of(v));
    }
    return span[2];
  }

  private static void reverse(byte[] v) {
    for (int i = 0, j = v.length - 1; i < j; i++, j--) {
      byte t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  }
}
