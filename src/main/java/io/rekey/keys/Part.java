package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One part of a key layout. Parts are immutable and know how to write and read themselves.
 *
 * <p>About 590 lines in one file because the interface is sealed: every kind of part (literal,
 * field, number, salt, hash, reversal) is a record permitted here, so a new kind cannot be added
 * without the codec seeing it, and each record's encoding sits beside its decoding.
 */
sealed interface Part extends Serializable {
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
  sealed interface OneField extends Part permits FieldPart, Reverse {
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
  sealed interface Digest extends Part permits Salt, Hash {
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

  /** A constant, usually a separator: {@code '_'}. */
  record Literal(byte[] bytes, int column) implements Part {
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
    public void encode(Fields fields, KeyMode mode, Ending ending, ByteArrayOutputStream out) {
      out.write(bytes, 0, bytes.length);
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
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
      return o instanceof Literal l && Arrays.equals(l.bytes, bytes) && l.column == column;
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes) * 31 + column;
    }
  }

  /**
   * A field written as its type says: {@code user}, {@code ts:long}, {@code id:bytes(4)}.
   *
   * @param what how messages name it ({@code field user}): made once, not for every key decoded
   */
  record FieldPart(FieldSpec field, int column, String what) implements OneField {
    FieldPart(FieldSpec field, int column) {
      this(field, column, "field " + field.name());
    }

    @Override
    public int fixedLength(KeyMode mode) {
      return switch (field.type()) {
        case STR -> -1;
        case BYTES -> field.width();
        case LONG -> mode == KeyMode.BINARY ? 8 : (field.width() > 0 ? field.width() : -1);
        case INT -> mode == KeyMode.BINARY ? 4 : (field.width() > 0 ? field.width() : -1);
      };
    }

    @Override
    public String describe() {
      return field.describe();
    }

    @Override
    public void encode(Fields fields, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      switch (field.type()) {
        case STR -> ending.write(fields.bytes(field.name()), what, out);
        case BYTES -> {
          byte[] b = fields.bytes(field.name());
          if (b.length != field.width()) {
            throw new KeyReject(
                RejectReason.WRONG_LENGTH,
                what + " has " + b.length + " bytes but is declared bytes(" + field.width() + ")");
          }
          out.write(b, 0, b.length);
        }
        case LONG, INT -> {
          long v = fields.number(field.name());
          if (field.type() == FieldType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw new KeyReject(
                RejectReason.NUMBER_OUT_OF_RANGE, what + " is " + v + ", beyond a 32-bit int");
          }
          if (mode == KeyMode.BINARY) {
            byte[] b = field.type() == FieldType.INT ? Bytes.toBytes((int) v) : Bytes.toBytes(v);
            out.write(b, 0, b.length);
          } else if (field.width() > 0) {
            byte[] b = Codec.padded(v, field.width(), what);
            out.write(b, 0, b.length);
          } else {
            ending.write(Long.toString(v).getBytes(StandardCharsets.US_ASCII), what, out);
          }
        }
      }
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      int fixed = fixedLength(mode);
      if (fixed >= 0 && pos + fixed > key.length) {
        throw new KeyReject(
            RejectReason.SOURCE_MISMATCH,
            what
                + " needs "
                + fixed
                + " bytes at byte "
                + pos
                + " but the key has "
                + (key.length - pos)
                + " left");
      }
      switch (field.type()) {
        case BYTES -> {
          out.put(field.name(), FieldValue.of(Arrays.copyOfRange(key, pos, pos + fixed)));
          return pos + fixed;
        }
        case LONG, INT -> {
          if (mode == KeyMode.BINARY) {
            long v = fixed == 8 ? Bytes.toLong(key, pos) : Bytes.toInt(key, pos);
            out.put(field.name(), FieldValue.of(v));
            return pos + fixed;
          }
          if (fixed > 0) {
            out.put(
                field.name(),
                FieldValue.of(Codec.parseDecimal(key, pos, pos + fixed, fixed, what)));
            return pos + fixed;
          }
          int[] span = ending.read(key, pos, what, null);
          long v = Codec.parseDecimal(key, span[0], span[1], 0, what);
          if (field.type() == FieldType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw new KeyReject(
                RejectReason.NUMBER_OUT_OF_RANGE, what + " is " + v + ", beyond a 32-bit int");
          }
          out.put(field.name(), FieldValue.of(v));
          return span[2];
        }
        default -> {
          ByteArrayOutputStream escaped = new ByteArrayOutputStream();
          int[] span = ending.read(key, pos, what, escaped);
          byte[] value =
              span[0] < 0 ? escaped.toByteArray() : Arrays.copyOfRange(key, span[0], span[1]);
          out.put(field.name(), FieldValue.of(value));
          return span[2];
        }
      }
    }
  }

  /**
   * {@code salt(N, fields…)}: the bucket {@code murmur3_32(input, seed 0) mod N} (unsigned), where
   * the input is the fields (each as 4-byte length + canonical bytes) or, with no fields, the whole
   * old key. One byte in binary keys; zero-padded decimal, as wide as {@code N-1}, in text.
   */
  record Salt(int buckets, List<String> fields, int column) implements Digest {
    public Salt {
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
      return ("0".repeat(textWidth() - digits.length()) + digits)
          .getBytes(StandardCharsets.US_ASCII);
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
    public void encode(Fields values, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      byte[] b = encodeBucket(bucket(values), mode);
      out.write(b, 0, b.length);
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      int len = fixedLength(mode);
      end(key, pos, len, this);
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

  /** {@code hash(fields…, bytes=k, algo=md5|murmur3)}: the first k bytes of the hash. */
  record Hash(List<String> fields, int bytes, String algo, int column) implements Digest {
    public Hash {
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
    public void encode(Fields values, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      Part.writeDigest(digest(values), bytes, mode, out);
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      return Part.end(key, pos, fixedLength(mode), this);
    }
  }

  /**
   * {@code hash_pair(a, b, bytes=k)}: MD5 of the two values in byte order, so (a, b) and (b, a)
   * give the same prefix: one key space per conversation.
   */
  record HashPair(String first, String second, int bytes, int column) implements Part {
    byte[] digest(Fields values) throws KeyReject {
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

    @Override
    public void encode(Fields values, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      Part.writeDigest(digest(values), bytes, mode, out);
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      return Part.end(key, pos, fixedLength(mode), this);
    }
  }

  /** {@code reverse(field)}: the field's text backwards, e.g. a phone number or an IP. */
  record Reverse(FieldSpec field, int column) implements OneField {
    @Override
    public int fixedLength(KeyMode mode) {
      return -1;
    }

    @Override
    public String describe() {
      return "reverse(" + field.name() + ")";
    }

    @Override
    public void encode(Fields fields, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      byte[] v = fields.bytes(field.name()).clone();
      reverse(v);
      ending.write(v, describe(), out);
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      ByteArrayOutputStream escaped = new ByteArrayOutputStream();
      int[] span = ending.read(key, pos, describe(), escaped);
      byte[] v = span[0] < 0 ? escaped.toByteArray() : Arrays.copyOfRange(key, span[0], span[1]);
      reverse(v);
      if (field.type().isNumber()) {
        out.put(field.name(), FieldValue.of(Codec.parseDecimal(v, 0, v.length, 0, describe())));
      } else {
        out.put(field.name(), FieldValue.of(v));
      }
      return span[2];
    }

    private static void reverse(byte[] v) {
      for (int i = 0, j = v.length - 1; i < j; i++, j--) {
        byte t = v[i];
        v[i] = v[j];
        v[j] = t;
      }
    }
  }

  /**
   * {@code reverse_ts(field)}: {@code Long.MAX_VALUE - ts}, so an entity's newest row sorts first;
   * 8 big-endian bytes in binary keys, 19 zero-padded digits in text keys.
   */
  record ReverseTs(String field, int column) implements Part {
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
    public void encode(Fields fields, KeyMode mode, Ending ending, ByteArrayOutputStream out)
        throws KeyReject {
      byte[] b = encodeValue(fields.number(field), mode);
      out.write(b, 0, b.length);
    }

    @Override
    public int decode(byte[] key, int pos, KeyMode mode, Ending ending, Map<String, FieldValue> out)
        throws KeyReject {
      int len = fixedLength(mode);
      end(key, pos, len, this);
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
}
