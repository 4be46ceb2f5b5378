package io.rekey.keys;

import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/** {@code hash(fields…, bytes=k, algo=md5|murmur3)}: the first k bytes of the hash. */
record HashPart(List<String> fields, int bytes, String algo, int column)
    implements Part.Digest, Part.HashBytes {
  public HashPart {
    fields = List.copyOf(fields);
  }

  @Override
  public byte[] digest(Fields values) throws KeyReject {
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
}
