package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The byte-level encodings the parts share. Pure functions over {@code byte[]}. */
final class Codec {
  /** The largest row key HBase accepts. */
  static final int MAX_KEY_LENGTH = Short.MAX_VALUE;

  /** Escape and terminator of variable-length values in binary keys (see {@link #writeEscaped}). */
  private static final byte ESCAPE = 0x00;

  private static final byte ESCAPED_ZERO = (byte) 0xFF;
  private static final byte TERMINATOR = 0x01;

  private Codec() {}

  /**
   * Writes {@code value} so that it ends unambiguously without a separator: each 0x00 becomes 0x00
   * 0xFF, and 0x00 0x01 ends the value. Byte order of the encoded form equals byte order of the
   * values, and no encoded value is a prefix of another, so a prefix scan for {@code user1} never
   * returns {@code user10}.
   */
  static void writeEscaped(byte[] value, ByteArrayOutputStream out) {
    // Runs between 0x00 bytes are copied whole: ByteArrayOutputStream locks on every call, and a
    // call per byte was a visible share of a rekey's map stage.
    int run = 0;
    for (int i = 0; i < value.length; i++) {
      if (value[i] == ESCAPE) {
        out.write(value, run, i + 1 - run);
        out.write(ESCAPED_ZERO);
        run = i + 1;
      }
    }
    out.write(value, run, value.length - run);
    out.write(ESCAPE);
    out.write(TERMINATOR);
  }

  /** Reads a value written by {@link #writeEscaped}; returns the position after its terminator. */
  static int readEscaped(byte[] key, int pos, ByteArrayOutputStream value, String what)
      throws KeyReject {
    int run = pos;
    for (int i = pos; i < key.length; i++) {
      if (key[i] != ESCAPE) {
        continue;
      }
      if (i + 1 >= key.length) {
        break;
      }
      value.write(key, run, i - run);
      byte next = key[i + 1];
      if (next == ESCAPED_ZERO) {
        value.write(ESCAPE);
        i++;
        run = i + 1;
      } else if (next == TERMINATOR) {
        return i + 2;
      } else {
        throw new KeyReject(
            RejectReason.SOURCE_MISMATCH,
            what
                + " has byte 0x00 followed by "
                + hex(next)
                + " at byte "
                + (i + 1)
                + ", which is neither an escaped 0x00 nor the end of the value");
      }
    }
    throw new KeyReject(
        RejectReason.SOURCE_MISMATCH,
        what + " is not terminated (no 0x00 0x01 after byte " + pos + ")");
  }

  /** The input of salt and hash parts: the old key, or each field as 4-byte length + bytes. */
  static byte[] hashInput(List<String> fields, Fields values) throws KeyReject {
    if (fields.isEmpty()) {
      return values.oldKey();
    }
    List<byte[]> parts = new java.util.ArrayList<>(fields.size());
    for (String f : fields) {
      parts.add(values.require(f).canonicalBytes());
    }
    return lengthPrefixed(parts);
  }

  /** Each value as its 4-byte big-endian length and its bytes: a framing with no ambiguity. */
  static byte[] lengthPrefixed(List<byte[]> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] b : values) {
      out.write(b.length >>> 24);
      out.write(b.length >>> 16);
      out.write(b.length >>> 8);
      out.write(b.length);
      out.write(b, 0, b.length);
    }
    return out.toByteArray();
  }

  static byte[] md5(byte[] input) {
    return Md5.fresh().digest(input);
  }

  static String hex(byte b) {
    return String.format("0x%02X", b & 0xff);
  }

  static void writeHex(byte[] bytes, int count, ByteArrayOutputStream out) {
    final byte[] digits = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < count; i++) {
      out.write(digits[(bytes[i] >>> 4) & 0xf]);
      out.write(digits[bytes[i] & 0xf]);
    }
  }

  /** {@code value} as zero-padded decimal of exactly {@code width} digits. */
  static byte[] padded(long value, int width, String field) throws KeyReject {
    if (value < 0) {
      throw new KeyReject(
          RejectReason.NUMBER_OUT_OF_RANGE,
          field + " is " + value + "; zero-padded numbers must not be negative");
    }
    String digits = Long.toString(value);
    if (digits.length() > width) {
      throw new KeyReject(
          RejectReason.NUMBER_OUT_OF_RANGE,
          field + " is " + value + ", more than " + width + " digits");
    }
    byte[] out = new byte[width];
    int lead = width - digits.length();
    for (int i = 0; i < width; i++) {
      out[i] = (byte) (i < lead ? '0' : digits.charAt(i - lead));
    }
    return out;
  }

  /**
   * Parses decimal digits, optionally zero-padded to {@code width}; plain ones must be canonical.
   */
  static long parseDecimal(byte[] key, int from, int to, int width, String field) throws KeyReject {
    if (to <= from) {
      throw new KeyReject(RejectReason.NOT_A_NUMBER, field + " is empty, not a number");
    }
    boolean negative = key[from] == '-' && width == 0;
    int start = negative ? from + 1 : from;
    if (start >= to) {
      throw new KeyReject(RejectReason.NOT_A_NUMBER, field + " is '-', not a number");
    }
    long value = 0;
    for (int i = start; i < to; i++) {
      int d = key[i] - '0';
      if (d < 0 || d > 9) {
        throw new KeyReject(
            RejectReason.NOT_A_NUMBER,
            field + " is '" + text(key, from, to) + "', not a decimal number");
      }
      if (value > (Long.MAX_VALUE - d) / 10) {
        throw new KeyReject(
            RejectReason.NUMBER_OUT_OF_RANGE,
            field + " is '" + text(key, from, to) + "', beyond a 64-bit number");
      }
      value = value * 10 + d;
    }
    if (width == 0 && key[start] == '0' && to - start > 1 || negative && value == 0) {
      throw new KeyReject(
          RejectReason.NOT_CANONICAL,
          field
              + " is '"
              + text(key, from, to)
              + "': its leading zeros would be lost; declare it with a width ("
              + (field.startsWith("field ") ? field.substring(6) : field)
              + ":long("
              + (to - from)
              + ")) if all values have one, or keep it as text");
    }
    return negative ? -value : value;
  }

  static String text(byte[] key, int from, int to) {
    return org.apache.hadoop.hbase.util.Bytes.toStringBinary(key, from, to - from);
  }

  /** The first index of {@code pattern} in {@code data} at or after {@code from}, or -1. */
  static int indexOf(byte[] data, int from, byte[] pattern) {
    outer:
    for (int i = from; i <= data.length - pattern.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
