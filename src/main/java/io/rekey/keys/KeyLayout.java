package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A row-key layout: how a key is made of parts, and how to write and read keys that way. Parsed
 * from a spec ({@link #parse}); immutable and serializable, so Spark can ship it to executors.
 *
 * <p>Variable-length parts (text fields, plain decimal numbers, reversed text) must end
 * unambiguously so that reading a key back and prefix scans are exact: they are last, or followed
 * by a separator literal their values may not contain, or (binary keys only) written with an
 * escaped terminator (0x00 becomes 0x00 0xFF, 0x00 0x01 ends the value).
 */
public final class KeyLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The name of the whole old key, available to every target layout. */
  public static final String OLD_KEY = "key";

  private final String spec;
  private final KeyMode mode;
  private final List<Part> parts;
  private final List<Part.Ending> endings;
  private final List<ColumnBinding> columns;
  private final Map<String, FieldSpec> fields;

  KeyLayout(String spec, KeyMode mode, List<Part> parts, List<ColumnBinding> columns) {
    this.spec = spec;
    this.mode = mode;
    this.parts = List.copyOf(parts);
    this.columns = List.copyOf(columns);
    this.endings = endings(mode, this.parts);
    this.fields = declaredFields(this.parts, this.columns);
  }

  /** Parses a spec in which every name is a new field (a source key). */
  public static KeyLayout parse(String spec) {
    return new LayoutParser(spec, null).parse();
  }

  /**
   * Parses a spec whose field names must be among {@code known} (a target key built from a source
   * key's fields); bare names take the known types.
   */
  public static KeyLayout parse(String spec, Map<String, FieldType> known) {
    return new LayoutParser(spec, Map.copyOf(known)).parse();
  }

  private static List<Part.Ending> endings(KeyMode mode, List<Part> parts) {
    List<Part.Ending> endings = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p.fixedLength(mode) >= 0) {
        endings.add(null);
        continue;
      }
      if (i == parts.size() - 1) {
        endings.add(Part.Ending.END);
        continue;
      }
      Part following = parts.get(i + 1);
      if (following instanceof LiteralPart literal) {
        boolean number =
            p instanceof FieldPart f && f.field().type().isNumber()
                || p instanceof ReversePart r && r.field().type().isNumber();
        byte first = literal.bytes()[0];
        if (number && (first == '-' || (first >= '0' && first <= '9'))) {
          throw new LayoutException(
              p.describe()
                  + " is a decimal number, so the separator after it must not start with a digit"
                  + " or '-'",
              literal.column());
        }
        endings.add(Part.Ending.before(literal.bytes()));
      } else if (mode == KeyMode.BINARY) {
        endings.add(Part.Ending.ESCAPED);
      } else {
        throw new LayoutException(
            p.describe()
                + " has no fixed width and is followed by "
                + following.describe()
                + ": put a separator literal between them (e.g. '_'), give it a width"
                + " (ts:long(13)), or use a binary layout",
            following.column());
      }
    }
    return Collections.unmodifiableList(endings);
  }

  private static Map<String, FieldSpec> declaredFields(
      List<Part> parts, List<ColumnBinding> columns) {
    Map<String, FieldSpec> fields = new LinkedHashMap<>();
    for (Part p : parts) {
      FieldSpec spec =
          p instanceof FieldPart f ? f.field() : p instanceof ReversePart r ? r.field() : null;
      if (p instanceof ReverseTsPart r) {
        spec = new FieldSpec(r.field(), FieldType.LONG, 0);
      }
      if (spec != null) {
        declare(fields, spec, p.column());
      }
    }
    for (ColumnBinding c : columns) {
      if (fields.containsKey(c.field().name())) {
        throw new LayoutException(
            "field " + c.field().name() + " is in the key already; a column cannot define it too",
            c.column());
      }
      declare(fields, c.field(), c.column());
    }
    return Collections.unmodifiableMap(fields);
  }

  private static void declare(Map<String, FieldSpec> fields, FieldSpec spec, int column) {
    FieldSpec before = fields.get(spec.name());
    if (before != null && before.type() != spec.type()) {
      throw new LayoutException(
          "field "
              + spec.name()
              + " is declared "
              + before.type().specName()
              + " and "
              + spec.type().specName()
              + "; give it one type",
          column);
    }
    if (before == null) {
      fields.put(spec.name(), spec);
    }
  }

  /**
   * Builds a key from field values ({@code oldKey} serves the field {@code key} and salts or hashes
   * over the whole old key; it may be null when no part needs it).
   *
   * @throws KeyReject when a value is missing or cannot be written this way
   */
  public byte[] encode(Map<String, FieldValue> values, byte[] oldKey) throws KeyReject {
    return encode(new Fields(values, oldKey));
  }

  byte[] encode(Fields values) throws KeyReject {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    for (int i = 0; i < parts.size(); i++) {
      parts.get(i).encode(values, mode, endings.get(i), out);
    }
    if (out.size() > Codec.MAX_KEY_LENGTH) {
      throw new KeyReject(
          RejectReason.KEY_TOO_LONG,
          "the new key would be "
              + out.size()
              + " bytes, over HBase's limit of "
              + Codec.MAX_KEY_LENGTH);
    }
    return out.toByteArray();
  }

  /**
   * Reads one field of a key, decoding the parts only up to it: cheaper than {@link #decode} when a
   * key is read for its leading field, and it does not check the rest of the key.
   *
   * @throws KeyReject when the key does not match the layout up to that field
   * @throws IllegalArgumentException when the layout has no such field in its key
   */
  public FieldValue decodeField(byte[] key, String field) throws KeyReject {
    OneField out = new OneField(field);
    int pos = 0;
    for (int i = 0; i < parts.size() && out.value == null; i++) {
      pos = parts.get(i).decode(key, pos, mode, endings.get(i), out);
    }
    if (out.value == null) {
      throw new IllegalArgumentException("the key layout " + spec + " has no field " + field);
    }
    return out.value;
  }

  /**
   * What parts decode into when one field is wanted: it keeps that field's value and drops the
   * others. The audit reads every row's leading field, and filling a hash map for it cost more than
   * decoding it.
   */
  private static final class OneField extends AbstractMap<String, FieldValue> {
    private final String field;
    private FieldValue value;

    OneField(String field) {
      this.field = field;
    }

    @Override
    public FieldValue put(String name, FieldValue v) {
      if (name.equals(field)) {
        value = v;
      }
      return null;
    }

    @Override
    public Set<Entry<String, FieldValue>> entrySet() {
      return value == null ? Set.of() : Set.of(Map.entry(field, value));
    }
  }

  /**
   * Reads a key back into the fields its parts keep (salt and hash parts are skipped). The whole
   * key must match.
   *
   * @throws KeyReject with {@link RejectReason#SOURCE_MISMATCH} when the key has another shape
   */
  public Map<String, FieldValue> decode(byte[] key) throws KeyReject {
    Map<String, FieldValue> out = new LinkedHashMap<>();
    int pos = 0;
    for (int i = 0; i < parts.size(); i++) {
      pos = parts.get(i).decode(key, pos, mode, endings.get(i), out);
    }
    if (pos != key.length) {
      throw new KeyReject(
          RejectReason.SOURCE_MISMATCH,
          "the key has " + (key.length - pos) + " byte(s) left after " + spec);
    }
    return out;
  }

  /**
   * The first field in key order that is read from the key itself (not a salt, hash or literal), or
   * null when there is none or the layout is just the whole old key: the natural first split of a
   * composite key ({@code ts} in {@code ts + '_' + user}).
   */
  public String firstKeyField() {
    for (Part p : parts) {
      if (p instanceof FieldPart f) {
        return f.field().name().equals(OLD_KEY) ? null : f.field().name();
      }
    }
    return null;
  }

  /** Fields that reading a key back gives. */
  public Set<String> recoverableFields() {
    Set<String> out = new LinkedHashSet<>();
    for (Part p : parts) {
      out.addAll(p.recovers());
    }
    return out;
  }

  /** Fields the key is built from. */
  public Set<String> inputFields() {
    Set<String> out = new LinkedHashSet<>();
    for (Part p : parts) {
      out.addAll(p.inputs());
    }
    return out;
  }

  /** Fields the key is built from that cannot be read back (only hashed). */
  public Set<String> unrecoverableFields() {
    Set<String> out = new LinkedHashSet<>(inputFields());
    out.removeAll(recoverableFields());
    return out;
  }

  /** Whether reading a key back gives every field it was built from. */
  public boolean isDecodable() {
    return unrecoverableFields().isEmpty();
  }

  /** The bucket count of a salt the key starts with, or 0 when it does not start with one. */
  public int leadingSaltBuckets() {
    return parts.get(0) instanceof SaltPart s ? s.buckets() : 0;
  }

  /** Whether the key starts with a hash (so its keys spread evenly over the byte space). */
  public boolean startsWithHash() {
    return parts.get(0) instanceof HashPart || parts.get(0) instanceof HashPairPart;
  }

  /** Fields declared by the key's parts and column bindings, with their types. */
  public Map<String, FieldSpec> fields() {
    return fields;
  }

  /** The field types, as a target layout needs them ({@link #parse(String, Map)}). */
  public Map<String, FieldType> fieldTypes() {
    Map<String, FieldType> types = new LinkedHashMap<>();
    fields.forEach((name, f) -> types.put(name, f.type()));
    return types;
  }

  public List<ColumnBinding> columns() {
    return columns;
  }

  public KeyMode mode() {
    return mode;
  }

  public String spec() {
    return spec;
  }

  List<Part> parts() {
    return parts;
  }

  List<Part.Ending> endings() {
    return endings;
  }

  /** The parts as a person reads them, with how each is written. */
  public List<String> describeParts() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      int fixed = p.fixedLength(mode);
      String how;
      if (fixed >= 0) {
        how = fixed + " byte" + (fixed == 1 ? "" : "s");
      } else {
        Part.Ending e = endings.get(i);
        how =
            switch (e.kind()) {
              case END -> "variable, to the end of the key";
              case ESCAPED -> "variable, 0x00-escaped and ended by 0x00 0x01";
              case BEFORE_LITERAL ->
                  "variable, up to '"
                      + org.apache.hadoop.hbase.util.Bytes.toStringBinary(e.literal())
                      + "' (values containing it are rejected)";
            };
      }
      out.add(p.describe() + ": " + how);
    }
    for (ColumnBinding c : columns) {
      out.add(c.describe() + ": from the row's newest " + c.family() + ":" + c.qualifier());
    }
    return out;
  }

  /** The canonical spec of this layout. */
  public String canonicalSpec() {
    StringBuilder s = new StringBuilder(mode == KeyMode.TEXT ? "text: " : "");
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        s.append(" + ");
      }
      s.append(parts.get(i).describe());
    }
    for (int i = 0; i < columns.size(); i++) {
      s.append(i == 0 ? " ; " : ", ").append(columns.get(i).describe());
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return canonicalSpec();
  }
}
