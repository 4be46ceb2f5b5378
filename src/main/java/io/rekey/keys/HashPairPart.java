package io.rekey.keys;

import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code hash_pair(a, b, bytes=k)}: MD5 of the two values in byte order, so (a, b) and (b, a) give
 * the same prefix: one key space per conversation.
 */
record HashPairPart(String first, String second, int bytes, int column) implements Part.HashBytes {
  @Override
  public byte[] digest(Fields values) throws KeyReject {
    byte[] a = values.require(first).canonicalBytes();
    byte[] b = values.require(second).canonicalBytes();
    byte[] lo = Bytes.compareTo(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    return Codec.md5(Codec.lengthPrefixed(List.of(lo, hi)));
  }

  @Override
  public int fixedLength(KeyMode mode) {
    return mode == KeyMode.BINARY ? bytes : 2 * bytes;
  }

  @Override
  public List<String> inputs() {
    return List.of(first, second);
  }

  @Override
  public List<String> recovers() {
    return List.of();
  }

  @Override
  public String describe() {
    return "hash_pair(" + first + ", " + second + ", bytes=" + bytes + ")";
  }
}
