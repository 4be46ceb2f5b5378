package io.rekey.index;

import io.rekey.hbase.HadoopFiles;
import io.rekey.index.entries.IndexEntries;
import io.rekey.index.entries.IndexKey;
import io.rekey.index.entries.IndexShape;
import io.rekey.index.entries.IndexShape.Column;
import io.rekey.keys.LayoutException;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.Location;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.PinnedOptions;
import io.rekey.schema.TableInspector;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/**
 * What a secondary index is: the source table, the indexed value (a column, or a field of the
 * source key), the index key layout, the columns copied into each entry, and where entries and the
 * index's state live. Every index command takes the same definition, from a {@code --def} file or
 * the command line.
 *
 * @param column the indexed column, or null when the value is a source key field
 * @param field the source key field indexed, or null when the value is a column
 * @param covered columns copied into every entry, so common reads need no second read
 * @param allVersions one entry per version of the indexed cell instead of per row
 * @param rejectMissing rows without the indexed value go to the rejects file instead of being
 *     counted as skipped
 * @param safetyLagMillis incremental runs index cells older than now minus this, so writes still in
 *     flight (client clocks, slow writers) are not missed
 */
public record IndexDefinition(
    String sourceName,
    IndexKey key,
    Column column,
    String field,
    List<Column> covered,
    String indexTableName,
    String family,
    boolean allVersions,
    boolean rejectMissing,
    int regions,
    String stateTableName,
    long safetyLagMillis)
    implements Serializable {

  /** Whether rows without the indexed value are rejected (else skipped and counted). */
  public enum MissingValue {
    SKIP,
    REJECT
  }

  public static final OptionDef<String> SOURCE =
      OptionDef.text("source", "NS:TABLE", "the table to index").required();
  public static final OptionDef<String> SOURCE_KEY =
      OptionDef.text(
              "source-key",
              "SPEC",
              "how the source row key is made, when the index key uses its fields (default: the"
                  + " whole key)")
          .withDefault("key");
  public static final OptionDef<String> COLUMN =
      OptionDef.text("column", "FAMILY:QUALIFIER", "the indexed column, e.g. m:sender");
  public static final OptionDef<String> FIELD =
      OptionDef.text("field", "NAME", "index a field of --source-key instead of a column");
  public static final OptionDef<String> INDEX_KEY =
      OptionDef.text(
              "index-key",
              "SPEC",
              "the index row key: value (the indexed value), ts (its cell's timestamp), key (the"
                  + " source key), source key fields, salt/hash parts")
          .withDefault(IndexKey.DEFAULT_LAYOUT);
  public static final OptionDef<String> COVERED =
      OptionDef.text(
              "covered",
              "FAMILY:QUALIFIER",
              "a column copied into every entry, so reads need not go back to the source;"
                  + " repeatable")
          .repeatable();
  public static final OptionDef<String> INDEX_TABLE =
      OptionDef.text("index-table", "NS:TABLE", "the index table (created pre-split when missing)")
          .required();
  public static final OptionDef<String> INDEX_FAMILY =
      OptionDef.text("index-family", "NAME", "the index table's family").withDefault("i");
  public static final OptionDef<Boolean> ALL_VERSIONS =
      OptionDef.flag(
          "all-versions", "one entry per version of the indexed cell (default: per row, newest)");
  public static final OptionDef<MissingValue> MISSING_VALUE =
      OptionDef.choice(
          "missing-value",
          "rows without the indexed value: counted and skipped, or written to the rejects file",
          MissingValue.class,
          MissingValue.SKIP);
  public static final OptionDef<Long> MAX_KEY_LENGTH =
      OptionDef.number(
              "max-key-length",
              "BYTES",
              "entries whose key would be longer are rejected with the reason",
              16,
              32_767)
          .withDefault(1024L);
  public static final OptionDef<Long> REGIONS =
      OptionDef.number(
              "regions",
              "N",
              "regions of a new index table whose key does not start with a salt",
              1,
              65_536)
          .withDefault(16L);
  public static final OptionDef<String> STATE_TABLE = io.rekey.run.RunLock.STATE_TABLE;
  public static final OptionDef<Long> SAFETY_LAG = io.rekey.run.RunState.SAFETY_LAG;
  public static final OptionDef<Boolean> ALLOW_SHORT_LAG = io.rekey.run.RunState.ALLOW_SHORT_LAG;

  public static final OptionDef<Location> DEF =
      OptionDef.location(
          "def",
          "FILE",
          "the index definition: key = value lines with the options below; the command line wins"
              + " (a local path, or hdfs://...)");

  /** The definition's options and {@code --def}, as every index command declares them. */
  public static List<OptionDef<?>> declaredWithFile() {
    List<OptionDef<?>> out = new ArrayList<>();
    out.add(DEF);
    out.addAll(declared());
    return out;
  }

  /** {@code given} over the values of its {@code --def} file, if it names one. */
  public static OptionValues withDefinitionFile(OptionValues given) {
    Location file = given.get(DEF);
    if (file == null) {
      return given;
    }
    return given.over(HadoopFiles.readJobFile(file, DEF.name(), "index", declared()));
  }

  /** Every option of a definition, in usage order. */
  public static List<OptionDef<?>> declared() {
    return List.of(
        SOURCE,
        SOURCE_KEY,
        COLUMN,
        FIELD,
        INDEX_KEY,
        COVERED,
        INDEX_TABLE,
        INDEX_FAMILY,
        ALL_VERSIONS,
        MISSING_VALUE,
        MAX_KEY_LENGTH,
        REGIONS,
        STATE_TABLE,
        SAFETY_LAG,
        ALLOW_SHORT_LAG);
  }

  /**
   * Builds and checks a definition.
   *
   * @throws InvalidOptionException naming the option, the value and the fix
   */
  public static IndexDefinition from(OptionValues values) {
    TableName source = TableInspector.tableName(SOURCE.name(), values.get(SOURCE));
    TableName index = TableInspector.tableName(INDEX_TABLE.name(), values.get(INDEX_TABLE));
    if (source.equals(index)) {
      throw InvalidOptionException.of(
          INDEX_TABLE.name(),
          values.get(INDEX_TABLE),
          "is the source table; name a table of its own");
    }
    TableName state = TableInspector.tableName(STATE_TABLE.name(), values.get(STATE_TABLE));
    String columnText = values.get(COLUMN);
    String field = values.get(FIELD);
    if ((columnText == null) == (field == null)) {
      throw new InvalidOptionException(
          columnText == null
              ? "the index needs a value: give --column FAMILY:QUALIFIER (e.g. m:sender) or --field"
                  + " NAME (a field of --source-key)"
              : "--column and --field are both given; an index has one value, choose one");
    }
    IndexKey key;
    try {
      key =
          IndexKey.parse(
              values.get(SOURCE_KEY), values.get(INDEX_KEY), values.get(MAX_KEY_LENGTH).intValue());
    } catch (LayoutException e) {
      boolean sourceSide = e.getMessage().startsWith("source key");
      throw InvalidOptionException.of(
          sourceSide ? SOURCE_KEY.name() : INDEX_KEY.name(),
          sourceSide ? values.get(SOURCE_KEY) : values.get(INDEX_KEY),
          "cannot be used: " + e.getMessage());
    }
    if (field != null && (!key.source().fields().containsKey(field) || field.equals("key"))) {
      throw InvalidOptionException.of(
          FIELD.name(),
          field,
          "is not a field of --source-key '"
              + values.get(SOURCE_KEY)
              + "'; its fields are "
              + key.source().fields().keySet());
    }
    List<Column> covered = new ArrayList<>();
    for (String c : values.getAll(COVERED)) {
      covered.add(column(COVERED.name(), c));
    }
    String family = values.get(INDEX_FAMILY).trim();
    if (family.isEmpty() || family.contains(":")) {
      throw InvalidOptionException.of(
          INDEX_FAMILY.name(), family, "must be a family name (letters, digits, no ':')");
    }
    if (family.equals(IndexShape.ROWS_FAMILY)) {
      throw InvalidOptionException.of(
          INDEX_FAMILY.name(),
          family,
          "is the family where the index keeps each source row's entry keys; name another, e.g. i");
    }
    long lagMillis =
        io.rekey.run.RunState.lagMillis(values.get(SAFETY_LAG), values.get(ALLOW_SHORT_LAG));
    return new IndexDefinition(
        source.getNameAsString(),
        key,
        columnText == null ? null : column(COLUMN.name(), columnText),
        field,
        List.copyOf(covered),
        index.getNameAsString(),
        family,
        values.get(ALL_VERSIONS),
        values.get(MISSING_VALUE) == MissingValue.REJECT,
        values.get(REGIONS).intValue(),
        state.getNameAsString(),
        lagMillis);
  }

  // Table names travel as text: HBase's TableName is not serializable, and Spark ships this.

  public TableName source() {
    return TableName.valueOf(sourceName);
  }

  public TableName indexTable() {
    return TableName.valueOf(indexTableName);
  }

  public TableName stateTable() {
    return TableName.valueOf(stateTableName);
  }

  /** What the index is on, for people: {@code m:sender} or {@code field sender}. */
  public String valueName() {
    return shape().valueName();
  }

  /**
   * What shapes the entries, as the index's runs pin it ({@link PinnedOptions}): the source, the
   * value, both key specs (canonical), the covered columns, the family and whether every version is
   * indexed. An update, scrutiny or lookup with another would write or read entries of another
   * shape than the index holds.
   */
  public PinnedOptions pinned() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(SOURCE.name(), sourceName);
    out.put(
        column != null ? COLUMN.name() : FIELD.name(), column != null ? column.toString() : field);
    out.put(SOURCE_KEY.name(), key.source().canonicalSpec());
    out.put(INDEX_KEY.name(), key.layout().canonicalSpec());
    List<String> names = new ArrayList<>();
    for (Column c : covered) {
      names.add(c.toString());
    }
    out.put(COVERED.name(), String.join(", ", names));
    out.put(INDEX_FAMILY.name(), family);
    out.put(ALL_VERSIONS.name(), String.valueOf(allVersions));
    return new PinnedOptions(out);
  }

  /**
   * The source families whose cells can change an entry: those of the indexed, covered and bound
   * columns; null for an index on a key field, whose rows any family makes exist.
   */
  public java.util.Set<String> familiesRead() {
    if (column == null) {
      return null;
    }
    java.util.Set<String> out = new java.util.TreeSet<>();
    out.add(column.family());
    covered.forEach(c -> out.add(c.family()));
    key.source().columns().forEach(c -> out.add(c.family()));
    return out;
  }

  /**
   * Refuses this definition when the index was built with another ({@code pinned}: what its build
   * recorded, or null for an index built before builds recorded it).
   *
   * @param command what is refused, for the message
   */
  public void requireSame(String pinned, String command) {
    pinned()
        .requireSame(
            pinned,
            indexTableName + " was built with",
            command,
            "Use the index's definition file; to change it, build a new index table");
  }

  private static Column column(String option, String text) {
    Column c = Column.parseOrNull(text);
    if (c == null) {
      throw InvalidOptionException.of(option, text, "must be FAMILY:QUALIFIER, e.g. m:sender");
    }
    return c;
  }

  /** What shapes the entries, without the options and tables around it. */
  public IndexShape shape() {
    return new IndexShape(column, field, covered, family, key, allVersions);
  }

  /** The entries this index derives from rows. */
  public IndexEntries entries() {
    return shape().entries();
  }
}
