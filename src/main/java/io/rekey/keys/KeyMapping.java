package io.rekey.keys;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How an old row key becomes a new one: the source layout reads fields out of the old key (and
 * columns), the target layout builds the new key from them. Immutable and serializable.
 */
public final class KeyMapping implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KeyLayout source;
  private final KeyLayout target;

  private KeyMapping(KeyLayout source, KeyLayout target) {
    this.source = source;
    this.target = target;
  }

  /**
   * Parses both specs. The target may use the source's fields, its column fields and {@code key}.
   *
   * @throws LayoutException naming the spec ({@code source key} or {@code target key}) and column
   */
  public static KeyMapping parse(String sourceSpec, String targetSpec) {
    KeyLayout source;
    try {
      source = KeyLayout.parse(sourceSpec);
    } catch (LayoutException e) {
      throw e.in("source key");
    }
    boolean wholeKey =
        source.parts().size() == 1
            && source.parts().get(0) instanceof FieldPart f
            && f.field().name().equals(KeyLayout.OLD_KEY);
    if (!wholeKey && source.fields().containsKey(KeyLayout.OLD_KEY)) {
      throw new LayoutException(
              "'key' is the whole old key and always available; name this field differently", 0)
          .in("source key");
    }
    KeyLayout target;
    try {
      target = KeyLayout.parse(targetSpec, source.fieldTypes());
    } catch (LayoutException e) {
      throw e.in("target key");
    }
    return new KeyMapping(source, target);
  }

  /**
   * The new key for an old key.
   *
   * @throws KeyReject when the old key does not match the source layout, a column is missing, or
   *     the new key cannot be written
   */
  public byte[] map(byte[] oldKey, ColumnValues columns) throws KeyReject {
    return target.encode(new Fields(sourceFields(oldKey, columns), oldKey));
  }

  /** The fields of an old key and its bound columns, as the target sees them. */
  public Map<String, FieldValue> sourceFields(byte[] oldKey, ColumnValues columns)
      throws KeyReject {
    Map<String, FieldValue> fields = new LinkedHashMap<>(source.decode(oldKey));
    for (ColumnBinding c : source.columns()) {
      byte[] value = columns.get(c.family(), c.qualifier());
      if (value == null) {
        if (target.inputFields().contains(c.field().name())) {
          throw new KeyReject(
              RejectReason.FIELD_MISSING,
              "column "
                  + c.family()
                  + ":"
                  + c.qualifier()
                  + " (field "
                  + c.field().name()
                  + ") is missing in this row");
        }
        continue;
      }
      fields.put(c.field().name(), columnValue(c, value));
    }
    return fields;
  }

  private FieldValue columnValue(ColumnBinding c, byte[] value) throws KeyReject {
    FieldSpec f = c.field();
    if (!f.type().isNumber()) {
      return FieldValue.of(value);
    }
    String what = "column " + c.family() + ":" + c.qualifier();
    if (source.mode() == KeyMode.TEXT) {
      return FieldValue.of(Codec.parseDecimal(value, 0, value.length, 0, what));
    }
    int expected = f.type() == FieldType.LONG ? 8 : 4;
    if (value.length != expected) {
      throw new KeyReject(
          RejectReason.WRONG_LENGTH,
          what + " has " + value.length + " bytes but " + f.describe() + " needs " + expected);
    }
    return FieldValue.of(expected == 8 ? Bytes.toLong(value) : Bytes.toInt(value));
  }

  /** Whether two different old keys can give the same new key. */
  public Injectivity injectivity() {
    Set<String> kept = target.recoverableFields();
    if (kept.contains(KeyLayout.OLD_KEY)) {
      return new Injectivity(true, List.of(), "yes: the new key keeps the whole old key");
    }
    List<String> lost = new ArrayList<>();
    for (String f : source.recoverableFields()) {
      if (!kept.contains(f)) {
        lost.add(f);
      }
    }
    if (lost.isEmpty()) {
      return new Injectivity(
          true,
          List.of(),
          "yes: the new key keeps every field of the old key ("
              + String.join(", ", source.recoverableFields())
              + ")");
    }
    return new Injectivity(
        false,
        lost,
        "no: the new key does not keep "
            + String.join(", ", lost)
            + " (only hashed or left out), so old keys that differ only there give the same new"
            + " key");
  }

  /**
   * The mapping run backwards, new key to old: for a stream that carries a migrated table's edits
   * back into its source.
   *
   * @throws LayoutException when the new key does not keep every field the old key is made of, or
   *     the old key binds a column
   */
  public KeyInverse inverse() {
    return KeyInverse.of(this);
  }

  /**
   * The mapping run backwards from rows the target holds to the source rows they were made of, also
   * where the old key binds a column whose value the new key keeps: how a stream finds, in a copied
   * target, the key each source row is held under.
   *
   * @throws LayoutException when the new key does not keep every field the old key is made of
   */
  public KeyInverse rowsBack() {
    return KeyInverse.ofRows(this);
  }

  public KeyLayout source() {
    return source;
  }

  public KeyLayout target() {
    return target;
  }

  /** Parses a field value typed on a command line: numbers for numeric fields, else text. */
  public FieldValue parseValue(String field, String text) {
    FieldSpec spec = source.fields().get(field);
    if (spec == null && !field.equals(KeyLayout.OLD_KEY)) {
      throw new LayoutException(
          "unknown field '"
              + field
              + "'; known fields: "
              + String.join(", ", source.fields().keySet()),
          0);
    }
    if (spec != null && spec.type().isNumber()) {
      try {
        return FieldValue.of(Long.parseLong(text.trim()));
      } catch (NumberFormatException e) {
        throw new LayoutException(
            "field " + field + " is a number but was given '" + text + "'", 0);
      }
    }
    return FieldValue.of(Bytes.toBytesBinary(text));
  }
}
