package io.rekey.index.entries;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What shapes an index's entries: the indexed value (a column, or a field of the source key), the
 * index key, the columns copied into each entry, the entries' family and whether every version is
 * indexed. The part of an index definition that derives entries from a row, with no options, Spark
 * or tables: the stream's replication endpoint carries it to the region servers in its peer's
 * configuration ({@link #toProperties}, {@link #fromProperties}).
 *
 * @param column the indexed column, or null when the value is a source key field
 * @param field the source key field indexed, or null when the value is a column
 * @param covered columns copied into every entry
 * @param family the entries' family
 * @param allVersions one entry per version of the indexed cell instead of per row
 */
public record IndexShape(
    Column column,
    String field,
    List<Column> covered,
    String family,
    IndexKey key,
    boolean allVersions)
    implements Serializable {

  /** A column, {@code family:qualifier}. */
  public record Column(String family, String qualifier) implements Serializable {
    @Override
    public String toString() {
      return family + ":" + qualifier;
    }

    /** The column {@code text} names, or null when it is not {@code FAMILY:QUALIFIER}. */
    public static Column parseOrNull(String text) {
      int colon = text.indexOf(':');
      if (colon <= 0 || colon == text.length() - 1) {
        return null;
      }
      return new Column(text.substring(0, colon).trim(), text.substring(colon + 1).trim());
    }
  }

  public IndexShape {
    covered = List.copyOf(covered);
  }

  /** The entry's marker cell qualifier: every entry has it, covered columns or not. */
  public static final String MARKER = "_";

  /**
   * The index table's second family: one row per source row, keyed by the source key, listing the
   * entry keys the index holds for it ({@link RowRecord}), so an update finds and removes the
   * entries a change retired.
   */
  public static final String ROWS_FAMILY = "r";

  /** The qualifier a covered column gets in an entry: {@code family:qualifier}. */
  public static String coveredQualifier(Column c) {
    return c.family() + ":" + c.qualifier();
  }

  /** What the index is on, for people: {@code m:sender} or {@code field sender}. */
  public String valueName() {
    return column != null ? column.toString() : "field " + field;
  }

  /** The entries this shape derives from rows. */
  public IndexEntries entries() {
    return new IndexEntries(this);
  }

  private static final String COLUMN = "column";
  private static final String FIELD = "field";
  private static final String COVERED = "covered";
  private static final String FAMILY = "family";
  private static final String SOURCE_KEY = "source-key";
  private static final String INDEX_KEY = "index-key";
  private static final String MAX_KEY_LENGTH = "max-key-length";
  private static final String ALL_VERSIONS = "all-versions";

  /** The shape as text, keys without a prefix ({@link #fromProperties} reads it back). */
  public Map<String, String> toProperties() {
    Map<String, String> out = new LinkedHashMap<>();
    if (column != null) {
      out.put(COLUMN, column.toString());
    } else {
      out.put(FIELD, field);
    }
    List<String> names = new ArrayList<>();
    covered.forEach(c -> names.add(c.toString()));
    out.put(COVERED, String.join(" ; ", names));
    out.put(FAMILY, family);
    out.put(SOURCE_KEY, key.source().canonicalSpec());
    out.put(INDEX_KEY, key.layout().canonicalSpec());
    out.put(MAX_KEY_LENGTH, String.valueOf(key.maxKeyLength()));
    out.put(ALL_VERSIONS, String.valueOf(allVersions));
    return out;
  }

  /**
   * The shape {@link #toProperties} wrote.
   *
   * @throws IllegalArgumentException naming the key that is missing or unreadable
   */
  public static IndexShape fromProperties(Map<String, String> in) {
    List<Column> covered = new ArrayList<>();
    for (String name : required(in, COVERED, true).split(";")) {
      if (!name.isBlank()) {
        covered.add(column(name.trim()));
      }
    }
    String columnText = in.get(COLUMN);
    return new IndexShape(
        columnText == null ? null : column(columnText),
        columnText == null ? required(in, FIELD, false) : null,
        covered,
        required(in, FAMILY, false),
        IndexKey.parse(
            required(in, SOURCE_KEY, false),
            required(in, INDEX_KEY, false),
            Integer.parseInt(required(in, MAX_KEY_LENGTH, false))),
        Boolean.parseBoolean(required(in, ALL_VERSIONS, false)));
  }

  private static Column column(String text) {
    Column c = Column.parseOrNull(text);
    if (c == null) {
      throw new IllegalArgumentException("an index shape's column '" + text + "' is no F:Q");
    }
    return c;
  }

  private static String required(Map<String, String> in, String key, boolean mayBeEmpty) {
    String v = in.get(key);
    if (v == null || (!mayBeEmpty && v.isBlank())) {
      throw new IllegalArgumentException("an index shape has no " + key);
    }
    return v;
  }
}
