package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code reverse_ts(field)}: {@code Long.MAX_VALUE - ts}, so an entity's newest row sorts first; 8
 * big-endian bytes in binary keys, 19 zero-padded digits in text keys.
 */
record ReverseTsPart(String field, int column) implements Part {
  static final int TEXT_WIDTH = 19;

  byte[] encodeValue(long ts, KeyMode mode) throws KeyReject {
    if (ts < 0) {
      throw new KeyReject(
          RejectReason.NUMBER_OUT_OF_RANGE,
          "field " + field + " is " + ts + "; reverse_ts needs a timestamp of 0 or more");
    }
    long r = Long.MAX_VALUE - ts;
    return mode == KeyMode.BINARY ? Bytes.toBytes(r) : Codec.padded(r, TEXT_WIDTH, field);
  }

  @Override
  public int fixedLength(KeyMode mode) {
    return mode == KeyMode.BINARY ? 8 : TEXT_WIDTH;
  }

  @Override
  public List<String> inputs() {
    return List.of(field);
  }

  @Override
  public List<String> recovers() {
    return List.of(field);
  }

  @Override
  public String describe() {
    return "reverse_ts(" + field + ")";
  }

  @Override
  public void encode(Fields fields, KeyMode mode, Part.Ending ending, ByteArrayOutputStream out)
      throws KeyReject {
    byte[] b = encodeValue(fields.number(field), mode);
    out.write(b, 0, b.length);
  }

  @Override
  public int decode(
      byte[] key, int pos, KeyMode mode, Part.Ending ending, Map<String, FieldValue> out)
      throws KeyReject {
    int len = fixedLength(mode);
    Part.end(key, pos, len, this);
    long r =
        mode == KeyMode.BINARY
            ? Bytes.toLong(key, pos)
            : Codec.parseDecimal(key, pos, pos + len, len, describe());
    if (r < 0) {
      throw new KeyReject(
          RejectReason.SOURCE_MISMATCH, describe() + " reads a negative reversed timestamp");
    }
    out.put(field, FieldValue.of(Long.MAX_VALUE - r));
    return pos + len;
  }
}
