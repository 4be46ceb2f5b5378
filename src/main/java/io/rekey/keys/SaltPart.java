package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code salt(N, fields…)}: the bucket {@code murmur3_32(input, seed 0) mod N} (unsigned), where
 * the input is the fields (each as 4-byte length + canonical bytes) or, with no fields, the whole
 * old key. One byte in binary keys; zero-padded decimal, as wide as {@code N-1}, in text.
 */
record SaltPart(int buckets, List<String> fields, int column) implements Part.Digest {
  public SaltPart {
    fields = List.copyOf(fields);
  }

  /** The bucket of a key with these values: a stored format, never to change. */
  int bucket(Fields values) throws KeyReject {
    return Integer.remainderUnsigned(Murmur3.hash32(Codec.hashInput(fields, values), 0), buckets);
  }

  int textWidth() {
    return Integer.toString(buckets - 1).length();
  }

  /** The encoded bytes of bucket {@code b}. */
  byte[] encodeBucket(int b, KeyMode mode) {
    if (mode == KeyMode.BINARY) {
      return new byte[] {(byte) b};
    }
    String digits = Integer.toString(b);
    return ("0".repeat(textWidth() - digits.length()) + digits).getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public int fixedLength(KeyMode mode) {
    return mode == KeyMode.BINARY ? 1 : textWidth();
  }

  @Override
  public String describe() {
    return "salt(" + buckets + (fields.isEmpty() ? "" : ", " + String.join(", ", fields)) + ")";
  }

  @Override
  public void encode(Fields values, KeyMode mode, Part.Ending ending, ByteArrayOutputStream out)
      throws KeyReject {
    byte[] b = encodeBucket(bucket(values), mode);
    out.write(b, 0, b.length);
  }

  @Override
  public int decode(
      byte[] key, int pos, KeyMode mode, Part.Ending ending, Map<String, FieldValue> out)
      throws KeyReject {
    int len = fixedLength(mode);
    Part.end(key, pos, len, this);
    long b =
        mode == KeyMode.BINARY
            ? key[pos] & 0xff
            : Codec.parseDecimal(key, pos, pos + len, len, describe());
    if (b >= buckets) {
      throw new KeyReject(
          RejectReason.SOURCE_MISMATCH,
          describe() + " reads bucket " + b + ", but there are only " + buckets);
    }
    return pos + len;
  }
}
