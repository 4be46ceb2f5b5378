package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One part of a key layout. Parts are immutable and know how to write and read themselves.
 *
 * <p>The interface is sealed: every kind of part ({@link LiteralPart}, {@link FieldPart}, {@link
 * SaltPart}, {@link HashPart}, {@link HashPairPart}, {@link ReversePart}, {@link ReverseTsPart}) is
 * a record of its own file permitted here, so a new kind cannot be added without the codec seeing
 * it; each record's encoding sits beside its decoding.
 */
sealed interface Part extends Serializable
    permits Part.OneField, Part.Digest, Part.HashBytes, LiteralPart, ReverseTsPart {
  /** Where the part starts in the spec, 1-based, for messages. */
  int column();

  /** The encoded length in bytes, or -1 when it depends on the value. */
  int fixedLength(KeyMode mode);

  /** Fields this part reads when a key is built. */
  List<String> inputs();

  /** Fields that reading this part back gives. */
  List<String> recovers();

  /** The part as a spec writes it. */
  String describe();

  void encode(Fields fields, KeyMode mode, Ending ending, ByteArrayOutputStream out)
      throws KeyReject;

  /** Reads the part at {@code pos} into {@code out}; returns the position after it. */
  int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
      throws KeyReject;

  /** A part that reads one field and gives it back when decoded. */
  sealed interface OneField extends Part permits FieldPart, ReversePart {
    FieldSpec field();

    @Override
    default List<String> inputs() {
      return List.of(field().name());
    }

    @Override
    default List<String> recovers() {
      return List.of(field().name());
    }
  }

  /**
   * A part computed from fields (or, with none named, from the whole old key) that reading the key
   * back cannot undo: a salt or a hash.
   */
  sealed interface Digest extends Part permits SaltPart, HashPart {
    List<String> fields();

    @Override
    default List<String> inputs() {
      return fields().isEmpty() ? List.of(KeyLayout.OLD_KEY) : fields();
    }

    @Override
    default List<String> recovers() {
      return List.of();
    }
  }

  /**
   * A hash written as the first {@code bytes()} of its digest, which reading the key back skips: a
   * hash of fields or of the old key, or a hash pair.
   */
  sealed interface HashBytes extends Part permits HashPart, HashPairPart {
    /** How many bytes of the digest the key holds. */
    int bytes();

    /** The digest of the part's inputs in {@code values}. */
    byte[] digest(Fields values) throws KeyReject;

    @Override
    default void encode(Fields values, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      writeDigest(digest(values), bytes(), mode, out);
    }

    @Override
    default int decode(
        byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      return end(key, pos, fixedLength(mode), this);
    }
  }

  /** Writes the first {@code bytes} of a digest: raw in binary keys, as hex in text keys. */
  static void writeDigest(byte[] digest, int bytes, KeyMode mode, ByteArrayOutputStream out) {
    if (mode == KeyMode.BINARY) {
      out.write(digest, 0, bytes);
    } else {
      Codec.writeHex(digest, bytes, out);
    }
  }

  /**
   * The position after a fixed-length part at {@code pos}, refusing a key too short to hold it: how
   * a part is skipped (a hash, which decoding cannot read back) or checked before it is read.
   */
  static int end(byte[] key, int pos, int length, Part part) throws KeyReject {
    if (pos + length > key.length) {
      throw new KeyReject(RejectReason.SOURCE_MISMATCH, "key too short for " + part.describe());
    }
    return pos + length;
  }

  /**
   * How a variable-length part ends: at the end of the key, before a separator literal, or with an
   * escaped terminator (binary keys only).
   *
   * @param literal the separator for {@link Kind#BEFORE_LITERAL}, else null
   */
  record Ending(Kind kind, byte[] literal) implements Serializable {
    enum Kind {
      END,
      BEFORE_LITERAL,
      ESCAPED
    }

    static final Ending END = new Ending(Kind.END, null);
    static final Ending ESCAPED = new Ending(Kind.ESCAPED, null);

    static Ending before(byte[] literal) {
      return new Ending(Kind.BEFORE_LITERAL, literal);
    }

    void write(byte[] value, String what, ByteArrayOutputStream out) throws KeyReject {
      switch (kind) {
        case END -> out.write(value, 0, value.length);
        case ESCAPED -> Codec.writeEscaped(value, out);
        case BEFORE_LITERAL -> {
          byte[] joined = Arrays.copyOf(value, value.length + literal.length);
          System.arraycopy(literal, 0, joined, value.length, literal.length);
          if (Codec.indexOf(joined, 0, literal) != value.length) {
            throw new KeyReject(
                RejectReason.SEPARATOR_IN_VALUE,
                what
                    + " is '"
                    + Bytes.toStringBinary(value)
                    + "', which contains the separator '"
                    + Bytes.toStringBinary(literal)
                    + "' that must end it");
          }
          out.write(value, 0, value.length);
        }
      }
    }

    /** Reads a value; returns {from, to, next position}. */
    int[] read(byte[] key, int pos, String what, ByteArrayOutputStream escaped) throws KeyReject {
      return switch (kind) {
        case END -> new int[] {pos, key.length, key.length};
        case ESCAPED -> {
          int next = Codec.readEscaped(key, pos, escaped, what);
          yield new int[] {-1, -1, next};
        }
        case BEFORE_LITERAL -> {
          int at = Codec.indexOf(key, pos, literal);
          if (at < 0) {
            throw new KeyReject(
                RejectReason.SOURCE_MISMATCH,
                "no '"
                    + Bytes.toStringBinary(literal)
                    + "' after "
                    + what
                    + " (from byte "
                    + pos
                    + ")");
          }
          yield new int[] {pos, at, at};
        }
      };
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Ending e && e.kind == kind && Arrays.equals(e.literal, literal);
    }

    @Override
    public int hashCode() {
      return kind.hashCode() * 31 + Arrays.hashCode(literal);
    }
  }
}
