package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A field written as its type says: {@code user}, {@code ts:long}, {@code id:bytes(4)}.
 *
 * @param what how messages name it ({@code field user}): made once, not for every key decoded
 */
record FieldPart(FieldSpec field, int column, String what) implements Part.OneField {
  FieldPart(FieldSpec field, int column) {
    this(field, column, "field " + field.name());
  }

  @Override
  public int fixedLength(KeyMode mode) {
    return switch (field.type()) {
      case STR -> -1;
      case BYTES -> field.width();
      case LONG -> mode == KeyMode.BINARY ? 8 : (field.width() > 0 ? field.width() : -1);
      case INT -> mode == KeyMode.BINARY ? 4 : (field.width() > 0 ? field.width() : -1);
    };
  }

  @Override
  public String describe() {
    return field.describe();
  }

  @Override
  public void encode(Fields fields, KeyMode mode, Part.Ending ending, ByteArrayOutputStream out)
      throws KeyReject {
    switch (field.type()) {
      case STR -> ending.write(fields.bytes(field.name()), what, out);
      case BYTES -> {
        byte[] b = fields.bytes(field.name());
        if (b.length != field.width()) {
          throw new KeyReject(
              RejectReason.WRONG_LENGTH,
              what + " has " + b.length + " bytes but is declared bytes(" + field.width() + ")");
        }
        out.write(b, 0, b.length);
      }
      case LONG, INT -> {
        long v = fields.number(field.name());
        if (field.type() == FieldType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
          throw new KeyReject(
              RejectReason.NUMBER_OUT_OF_RANGE, what + " is " + v + ", beyond a 32-bit int");
        }
        if (mode == KeyMode.BINARY) {
          byte[] b = field.type() == FieldType.INT ? Bytes.toBytes((int) v) : Bytes.toBytes(v);
          out.write(b, 0, b.length);
        } else if (field.width() > 0) {
          byte[] b = Codec.padded(v, field.width(), what);
          out.write(b, 0, b.length);
        } else {
          ending.write(Long.toString(v).getBytes(StandardCharsets.US_ASCII), what, out);
        }
      }
    }
  }

  @Override
  public int decode(
      byte[] key, int pos, KeyMode mode, Part.Ending ending, Map<String, FieldValue> out)
      throws KeyReject {
    int fixed = fixedLength(mode);
    if (fixed >= 0 && pos + fixed > key.length) {
      throw new KeyReject(
          RejectReason.SOURCE_MISMATCH,
          what
              + " needs "
              + fixed
              + " bytes at byte "
              + pos
              + " but the key has "
              + (key.length - pos)
              + " left");
    }
    switch (field.type()) {
      case BYTES -> {
        out.put(field.name(), FieldValue.of(Arrays.copyOfRange(key, pos, pos + fixed)));
        return pos + fixed;
      }
      case LONG, INT -> {
        if (mode == KeyMode.BINARY) {
          long v = fixed == 8 ? Bytes.toLong(key, pos) : Bytes.toInt(key, pos);
          out.put(field.name(), FieldValue.of(v));
          return pos + fixed;
        }
        if (fixed > 0) {
          out.put(
              field.name(), FieldValue.of(Codec.parseDecimal(key, pos, pos + fixed, fixed, what)));
          return pos + fixed;
        }
        int[] span = ending.read(key, pos, what, null);
        long v = Codec.parseDecimal(key, span[0], span[1], 0, what);
        if (field.type() == FieldType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
          throw new KeyReject(
              RejectReason.NUMBER_OUT_OF_RANGE, what + " is " + v + ", beyond a 32-bit int");
        }
        out.put(field.name(), FieldValue.of(v));
        return span[2];
      }
      default -> {
        ByteArrayOutputStream escaped = new ByteArrayOutputStream();
        int[] span = ending.read(key, pos, what, escaped);
        byte[] value =
            span[0] < 0 ? escaped.toByteArray() : Arrays.copyOfRange(key, span[0], span[1]);
        out.put(field.name(), FieldValue.of(value));
        return span[2];
      }
    }
  }
}
