package io.rekey.keys;

import java.util.HexFormat;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A row key shown two ways: printable (HBase's {@code toStringBinary}, non-printing bytes as {@code
 * \xNN}) and hex.
 *
 * @param printable the key as HBase's toStringBinary prints it
 * @param hex the key in hexadecimal
 */
public record KeyText(String printable, String hex) {
  public static KeyText of(byte[] key) {
    return new KeyText(Bytes.toStringBinary(key), HexFormat.of().formatHex(key));
  }
}
