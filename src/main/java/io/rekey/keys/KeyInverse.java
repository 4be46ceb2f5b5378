package io.rekey.keys;

import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A key mapping run backwards: the old key of a new one, read out of the new key's fields and built
 * again with the source layout. Only a mapping whose new key keeps everything the old key is made
 * of has one ({@link KeyMapping#inverse()}). Immutable and serializable.
 */
public final class KeyInverse implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KeyMapping mapping;
  private final boolean bound;

  private KeyInverse(KeyMapping mapping, boolean bound) {
    this.mapping = mapping;
    this.bound = bound;
  }

  /**
   * @throws LayoutException naming what the new key does not keep, or the column the old key binds
   */
  static KeyInverse of(KeyMapping mapping) {
    if (!mapping.source().columns().isEmpty()) {
      throw new LayoutException(
              "the old key binds columns ("
                  + mapping.source().canonicalSpec()
                  + "), so a new key cannot be mapped back without its row",
              0)
          .in("source key");
    }
    return keeping(mapping, false);
  }

  /**
   * The inverse of a mapping whose old key may bind columns: a new key gives back the row it was
   * made from when it keeps every field of the old key (the bound columns' values, read out of the
   * new key, only check it).
   *
   * @throws LayoutException naming what the new key does not keep
   */
  static KeyInverse ofRows(KeyMapping mapping) {
    return keeping(mapping, !mapping.source().columns().isEmpty());
  }

  private static KeyInverse keeping(KeyMapping mapping, boolean bound) {
    KeyLayout source = mapping.source();
    KeyLayout target = mapping.target();
    Set<String> kept = target.recoverableFields();
    if (!kept.contains(KeyLayout.OLD_KEY)) {
      Set<String> lost = new LinkedHashSet<>(source.inputFields());
      lost.removeAll(kept);
      if (!lost.isEmpty()) {
        throw new LayoutException(
                "the new key does not keep "
                    + String.join(", ", lost)
                    + (lost.contains(KeyLayout.OLD_KEY)
                        ? " (the whole old key, which the source's salt or hash reads)"
                        : " (only hashed or left out)")
                    + ", so the old key cannot be read back from it",
                0)
            .in("target key");
      }
    }
    return new KeyInverse(mapping, bound);
  }

  /**
   * The old key that maps to {@code newKey}.
   *
   * @throws KeyReject when the new key does not match the target layout, or the old key built from
   *     its fields does not map to it again (the mapping never writes this new key)
   */
  public byte[] oldKey(byte[] newKey) throws KeyReject {
    Map<String, FieldValue> fields = mapping.target().decode(newKey);
    FieldValue whole = fields.get(KeyLayout.OLD_KEY);
    byte[] old =
        whole instanceof FieldValue.BytesValue b
            ? b.raw()
            : mapping.source().encode(new Fields(fields, null));
    // Checked, not assumed: a new key the mapping never writes (a salt of another bucket) still
    // reads back into fields.
    if (!Arrays.equals(again(old, fields), newKey)) {
      throw new KeyReject(
          RejectReason.SOURCE_MISMATCH,
          "the old key read back from "
              + Bytes.toStringBinary(newKey)
              + " is "
              + Bytes.toStringBinary(old)
              + ", which maps to another new key");
    }
    return old;
  }

  /**
   * The new key {@code old} maps to; a bound column's value is the one read out of the new key (a
   * row that held another value would have been written under another key).
   */
  private byte[] again(byte[] old, Map<String, FieldValue> decoded) throws KeyReject {
    if (!bound) {
      return mapping.map(old, ColumnValues.NONE);
    }
    Map<String, FieldValue> fields = new LinkedHashMap<>(decoded);
    fields.putAll(mapping.source().decode(old));
    return mapping.target().encode(fields, old);
  }
}
