package io.rekey.keys;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.hbase.util.Bytes;

/** The value of one field: bytes or a number. */
public sealed interface FieldValue extends Serializable {
  /** The canonical bytes hashed by salt and hash parts: the bytes, or 8 big-endian bytes. */
  byte[] canonicalBytes();

  /** How a person reads it: printable text with {@code \xNN} escapes, or the number. */
  String printable();

  static FieldValue of(byte[] bytes) {
    return new BytesValue(bytes);
  }

  static FieldValue of(String text) {
    return new BytesValue(text.getBytes(StandardCharsets.UTF_8));
  }

  static FieldValue of(long number) {
    return new LongValue(number);
  }

  /** A byte-string value. */
  record BytesValue(byte[] bytes) implements FieldValue {
    public BytesValue {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    byte[] raw() {
      return bytes;
    }

    @Override
    public byte[] canonicalBytes() {
      return bytes.clone();
    }

    @Override
    public String printable() {
      return Bytes.toStringBinary(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof BytesValue b && Arrays.equals(bytes, b.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return "'" + printable() + "'";
    }
  }

  /** A number. */
  record LongValue(long value) implements FieldValue {
    @Override
    public byte[] canonicalBytes() {
      return Bytes.toBytes(value);
    }

    @Override
    public String printable() {
      return Long.toString(value);
    }

    @Override
    public String toString() {
      return printable();
    }
  }
}
