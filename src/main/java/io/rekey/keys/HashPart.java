package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/** {@code hash(fields…, bytes=k, algo=md5|murmur3)}: the first k bytes of the hash. */
record HashPart(List<String> fields, int bytes, String algo, int column) implements Part.Digest {
  public HashPart {
    fields = List.copyOf(fields);
  }

  byte[] digest(Fields values) throws KeyReject {
    byte[] input = Codec.hashInput(fields, values);
    if (algo.equals("murmur3")) {
      return Bytes.toBytes(Murmur3.hash32(input, 0));
    }
    return Codec.md5(input);
  }

  @Override
  public int fixedLength(KeyMode mode) {
    return mode == KeyMode.BINARY ? bytes : 2 * bytes;
  }

  @Override
  public String describe() {
    return "hash("
        + (fields.isEmpty() ? "" : String.join(", ", fields) + ", ")
        + "bytes="
        + bytes
        + (algo.equals("md5") ? "" : ", algo=" + algo)
        + ")";
  }

  @Override
  public void encode(Fields values, KeyMode mode, Part.Ending ending, ByteArrayOutputStream out)
      throws KeyReject {
    Part.writeDigest(digest(values), bytes, mode, out);
  }

  @Override
  public int decode(
      byte[] key, int pos, KeyMode mode, Part.Ending ending, Map<String, FieldValue> out)
      throws KeyReject {
    return Part.end(key, pos, fixedLength(mode), this);
  }
}
