package io.rekey.index.entries;

import io.rekey.keys.ColumnValues;
import io.rekey.keys.FieldType;
import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyLayout;
import io.rekey.keys.KeyReject;
import io.rekey.keys.LayoutException;
import io.rekey.keys.RejectReason;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * How an index entry's row key is made from a source row: the index layout is a target layout over
 * the source key's fields plus two of the index's own, {@code value} (the indexed value) and {@code
 * ts} (the timestamp of the indexed cell), and {@code key} (the whole source key). The default,
 * {@code value + reverse_ts(ts) + key}, puts a value's entries together, newest first, one per
 * source row. Pure: no Spark, no HBase client; immutable and serializable.
 */
public final class IndexKey implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The indexed value, as the index key layout names it. */
  public static final String VALUE = "value";

  /** The timestamp of the indexed cell, as the index key layout names it. */
  public static final String TS = "ts";

  /** The index key most secondary indexes on HBase use. */
  public static final String DEFAULT_LAYOUT = "value + reverse_ts(ts) + key";

  private final KeyLayout source;
  private final KeyLayout layout;
  private final int maxKeyLength;
  // Whether building an entry key needs the source key's fields decoded (else only value, ts, key).
  private final boolean needsSourceFields;

  private IndexKey(KeyLayout source, KeyLayout layout, int maxKeyLength) {
    this.source = source;
    this.layout = layout;
    this.maxKeyLength = maxKeyLength;
    Set<String> own = Set.of(VALUE, TS, KeyLayout.OLD_KEY);
    this.needsSourceFields = !own.containsAll(layout.inputFields());
  }

  /**
   * Parses the source key spec and the index key spec.
   *
   * @throws LayoutException naming the spec ({@code source key} or {@code index key}) and the
   *     problem: a source field named {@code value} or {@code ts}, an index key that leaves out the
   *     value, or one from which the source key cannot be read back
   */
  public static IndexKey parse(String sourceSpec, String indexSpec, int maxKeyLength) {
    KeyLayout source;
    try {
      source = KeyLayout.parse(sourceSpec);
    } catch (LayoutException e) {
      throw new LayoutException("source key: " + e.getMessage(), 0);
    }
    for (String reserved : new String[] {VALUE, TS}) {
      if (source.fields().containsKey(reserved)) {
        throw new LayoutException(
            "source key: the field '"
                + reserved
                + "' is the index's own ("
                + (reserved.equals(VALUE) ? "the indexed value" : "the indexed cell's timestamp")
                + "); give the source field another name",
            0);
      }
    }
    Map<String, FieldType> known = new HashMap<>(source.fieldTypes());
    known.put(VALUE, FieldType.STR);
    known.put(TS, FieldType.LONG);
    KeyLayout layout;
    try {
      layout = KeyLayout.parse(indexSpec, known);
    } catch (LayoutException e) {
      throw new LayoutException("index key: " + e.getMessage(), 0);
    }
    if (!layout.recoverableFields().contains(VALUE)) {
      throw new LayoutException(
          "index key: it must hold the indexed value as 'value' (e.g. " + DEFAULT_LAYOUT + ")", 0);
    }
    if (!layout.recoverableFields().contains(KeyLayout.OLD_KEY)) {
      throw new LayoutException(
          "index key: it must end with the whole source key 'key', so every source row gets its own"
              + " entry and an entry leads back to its row (e.g. "
              + DEFAULT_LAYOUT
              + ")",
          0);
    }
    return new IndexKey(source, layout, maxKeyLength);
  }

  /**
   * The index row key of one indexed cell.
   *
   * @param columns the row's columns bound by the source key spec (unused when it binds none)
   * @throws KeyReject when the source key does not match its spec, a value cannot be written into
   *     the layout, or the key would be longer than the index allows
   */
  public byte[] entryKey(byte[] sourceKey, ColumnValues columns, byte[] value, long ts)
      throws KeyReject {
    Map<String, FieldValue> fields;
    if (needsSourceFields) {
      fields = new HashMap<>(source.decode(sourceKey));
      for (var c : source.columns()) {
        byte[] v = columns.get(c.family(), c.qualifier());
        if (v != null) {
          fields.put(c.field().name(), FieldValue.of(v));
        }
      }
      fields.put(VALUE, FieldValue.of(value));
      fields.put(TS, FieldValue.of(ts));
    } else {
      // The usual layout (value, time, whole source key): no hash table to fill per row.
      fields = new ValueAndTime(FieldValue.of(value), FieldValue.of(ts));
    }
    byte[] key = layout.encode(fields, sourceKey);
    if (key.length > maxKeyLength) {
      throw new KeyReject(
          RejectReason.KEY_TOO_LONG,
          "the index key would be "
              + key.length
              + " bytes (the value is "
              + value.length
              + "), over the index's limit of "
              + maxKeyLength
              + " (max-key-length)");
    }
    return key;
  }

  /** The indexed value and the time, the fields of a layout that binds nothing from the source. */
  private static final class ValueAndTime extends AbstractMap<String, FieldValue> {
    private final FieldValue value;
    private final FieldValue ts;

    ValueAndTime(FieldValue value, FieldValue ts) {
      this.value = value;
      this.ts = ts;
    }

    @Override
    public FieldValue get(Object name) {
      return VALUE.equals(name) ? value : TS.equals(name) ? ts : null;
    }

    @Override
    public Set<Map.Entry<String, FieldValue>> entrySet() {
      return Set.of(Map.entry(VALUE, value), Map.entry(TS, ts));
    }
  }

  /** What an index row key says: the indexed value, the cell's timestamp, the source row. */
  public record Entry(byte[] value, long ts, byte[] sourceKey) {}

  /**
   * Reads an index row key back.
   *
   * @throws KeyReject when the key was not made by this layout
   */
  public Entry decode(byte[] indexKey) throws KeyReject {
    Map<String, FieldValue> f = layout.decode(indexKey);
    FieldValue ts = f.get(TS);
    return new Entry(
        ((FieldValue.BytesValue) f.get(VALUE)).bytes(),
        ts instanceof FieldValue.LongValue l ? l.value() : -1,
        ((FieldValue.BytesValue) f.get(KeyLayout.OLD_KEY)).bytes());
  }

  /** The source key layout. */
  public KeyLayout source() {
    return source;
  }

  /** The index key layout. */
  public KeyLayout layout() {
    return layout;
  }

  public int maxKeyLength() {
    return maxKeyLength;
  }
}
