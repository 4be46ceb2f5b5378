package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/** A constant, usually a separator: {@code '_'}. */
record LiteralPart(byte[] bytes, int column) implements Part {
  @Override
  public int fixedLength(KeyMode mode) {
    return bytes.length;
  }

  @Override
  public List<String> inputs() {
    return List.of();
  }

  @Override
  public List<String> recovers() {
    return List.of();
  }

  @Override
  public String describe() {
    return "'" + Bytes.toStringBinary(bytes).replace("'", "\\'") + "'";
  }

  @Override
  public void encode(Fields fields, KeyMode mode, Part.Ending ending, ByteArrayOutputStream out) {
    out.write(bytes, 0, bytes.length);
  }

  @Override
  public int decode(
      byte[] key, int pos, KeyMode mode, Part.Ending ending, Map<String, FieldValue> out)
      throws KeyReject {
    if (pos + bytes.length > key.length
        || !Arrays.equals(key, pos, pos + bytes.length, bytes, 0, bytes.length)) {
      throw new KeyReject(
          RejectReason.SOURCE_MISMATCH, "expected " + describe() + " at byte " + pos);
    }
    return pos + bytes.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LiteralPart l && Arrays.equals(l.bytes, bytes) && l.column == column;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes) * 31 + column;
  }
}
