package io.rekey.index;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.TableAdmin;
import io.rekey.index.entries.IndexShape;
import io.rekey.index.entries.IndexShape.Column;
import io.rekey.index.entries.RowRecord;
import io.rekey.keys.ColumnBinding;
import io.rekey.keys.KeyLayout;
import io.rekey.keys.LayoutException;
import io.rekey.keys.SplitPoints;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index table: checked when it exists (it must have the index family and the row records'),
 * created pre-split when it does not. Its index family keeps one version (an entry's key already
 * holds its time), a row bloom filter (lookups and repairs read single entries) and FAST_DIFF
 * encoding (entries of one value share long key prefixes), compressed like the source's indexed
 * family; the row records' family ({@link RowRecord}) keeps two versions.
 */
public final class IndexTable {
  private static final Logger LOG = LoggerFactory.getLogger(IndexTable.class);

  private final Connection connection;
  private final IndexDefinition definition;
  // What check() found, so a run asks the master once: the source's descriptor, and the index
  // table's (null when it does not exist yet).
  private TableDescriptor checkedSource;
  private TableDescriptor checkedIndex;

  private final boolean createNamespace;
  // Whether this run created the index table (so a failed run may drop it while it is empty).
  private boolean created;

  /**
   * @param createNamespace create the index table's namespace when it is missing (else refused)
   */
  public IndexTable(Connection connection, IndexDefinition definition, boolean createNamespace) {
    this.connection = connection;
    this.definition = definition;
    this.createNamespace = createNamespace;
  }

  /** Whether this run created the index table. */
  public boolean createdByThisRun() {
    return created;
  }

  /**
   * The index table as it will be written: its family's settings and its region start keys.
   *
   * @param regionStarts empty for Puts into an existing table, which need no split points
   * @param splitPlan how a new table's regions were planned (null for an existing table)
   * @param creation the creation of a new index table, still assigning its regions, or null
   * @param admin waits for the creation, within its bound
   */
  public record Layout(
      FamilySettings family,
      FamilySettings rowsFamily,
      List<byte[]> regionStarts,
      boolean created,
      String splitPlan,
      Future<Void> creation,
      TableAdmin admin) {
    /** Waits until a new table's regions are assigned: before loading into it. */
    public void awaitTable(TableName table) {
      if (creation != null) {
        admin.await(creation, table);
      }
    }
  }

  /** Sampled entry keys, and where they were read (for the run's result). */
  public record SampledKeys(List<byte[]> keys, String from) {}

  /**
   * Whether a new index table must be split at sample quantiles of the entry keys: it does not
   * exist yet and its key starts with neither a salt nor a hash.
   */
  public boolean needsSampleKeys() {
    KeyLayout layout = definition.key().layout();
    check();
    return checkedIndex == null && layout.leadingSaltBuckets() == 0 && !layout.startsWithHash();
  }

  /**
   * The source family whose rows a split-point sample reads: the indexed column's, else that of the
   * first column the source key binds, else the source's first family (an index on a key field
   * needs only the row keys).
   */
  public byte[] sampleFamily() {
    if (definition.column() != null) {
      return Bytes.toBytes(definition.column().family());
    }
    List<ColumnBinding> bound = definition.key().source().columns();
    if (!bound.isEmpty()) {
      return Bytes.toBytes(bound.get(0).family());
    }
    return new TableAdmin(connection)
        .descriptor(definition.source(), "source")
        .getColumnFamilies()[0]
        .getName();
  }

  /**
   * Checks the source and the index table, creating the index table when missing.
   *
   * @param sampleKeys a sample of the entry keys, asked for only when {@link #needsSampleKeys}
   * @param splitPoints whether the run needs an existing table's region start keys (HFiles do)
   */
  public Layout prepare(Supplier<SampledKeys> sampleKeys, boolean splitPoints) {
    TableAdmin admin = new TableAdmin(connection);
    TableDescriptor source = check();
    if (checkedIndex == null) {
      // The master assigns the new regions while the entries are written: the writers need only
      // the split points, the bulk load the table.
      Planned plan = splits(sampleKeys);
      List<byte[]> splits = plan.splits();
      TableDescriptor planned = descriptor(source);
      if (createNamespace) {
        admin.ensureNamespace(definition.indexTable().getNamespaceAsString());
      }
      Future<Void> creation = admin.createAsync(planned, splits);
      created = true;
      LOG.info("index: creating {} with {}", definition.indexTable(), plan.how());
      List<byte[]> starts = new ArrayList<>();
      starts.add(HConstants.EMPTY_START_ROW);
      starts.addAll(splits);
      return new Layout(
          FamilySettings.of(planned.getColumnFamily(Bytes.toBytes(definition.family()))),
          FamilySettings.of(planned.getColumnFamily(Bytes.toBytes(IndexShape.ROWS_FAMILY))),
          starts,
          true,
          plan.how(),
          creation,
          admin);
    }
    return new Layout(
        FamilySettings.of(checkedIndex.getColumnFamily(Bytes.toBytes(definition.family()))),
        FamilySettings.of(checkedIndex.getColumnFamily(Bytes.toBytes(IndexShape.ROWS_FAMILY))),
        splitPoints ? admin.regionStartKeys(definition.indexTable()) : List.of(),
        false,
        null,
        null,
        admin);
  }

  /**
   * Checks, before any data is read, that the source has the families the index reads and that an
   * existing index table has the index family.
   *
   * <p>Asks the master once per run: what it finds is kept for {@link #prepare}, which the run's
   * lock keeps true (no other run of this index creates or drops its table meanwhile).
   *
   * @return the source's descriptor
   */
  public TableDescriptor check() {
    if (checkedSource != null) {
      return checkedSource;
    }
    TableAdmin admin = new TableAdmin(connection);
    TableDescriptor source = admin.descriptor(definition.source(), "source");
    List<Column> read = new ArrayList<>(definition.covered());
    if (definition.column() != null) {
      read.add(0, definition.column());
    }
    for (Column c : read) {
      if (source.getColumnFamily(Bytes.toBytes(c.family())) == null) {
        throw new RekeyException(
            "the index reads "
                + c
                + ", but "
                + definition.source()
                + " has no family '"
                + c.family()
                + "'; its families are "
                + familyNames(source));
      }
    }
    if (!admin.exists(definition.indexTable())) {
      admin.requireNamespace(definition.indexTable(), "index-table", createNamespace);
      checkedSource = source;
      return source;
    }
    TableDescriptor index = admin.descriptor(definition.indexTable(), "index");
    if (index.getColumnFamily(Bytes.toBytes(definition.family())) == null) {
      throw new RekeyException(
          "the index table "
              + definition.indexTable()
              + " has no family '"
              + definition.family()
              + "' (it has "
              + familyNames(index)
              + "); set index-family to one of those, or name another index-table");
    }
    requireRowRecords(index, definition);
    checkedSource = source;
    checkedIndex = index;
    return source;
  }

  /**
   * Refuses an index table without the row records' family: one built before updates kept them,
   * whose entries of changed rows an update could not find.
   */
  static void requireRowRecords(TableDescriptor index, IndexDefinition definition) {
    if (index.getColumnFamily(Bytes.toBytes(IndexShape.ROWS_FAMILY)) == null) {
      throw new RekeyException(
          "the index table "
              + definition.indexTable()
              + " has no family '"
              + IndexShape.ROWS_FAMILY
              + "', where an index keeps each source row's entry keys so updates can remove the"
              + " entries a change retires: it was built by an earlier version. Build the index"
              + " into a new index-table (or drop this one and build it again)");
    }
  }

  private TableDescriptor descriptor(TableDescriptor source) {
    String compressFrom = definition.column() != null ? definition.column().family() : null;
    ColumnFamilyDescriptor like =
        compressFrom == null
            ? source.getColumnFamilies()[0]
            : source.getColumnFamily(Bytes.toBytes(compressFrom));
    return TableDescriptorBuilder.newBuilder(definition.indexTable())
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(definition.family()))
                .setMaxVersions(1)
                .setBloomFilterType(BloomType.ROW)
                .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
                .setCompressionType(like.getCompressionType())
                .build())
        // Two versions: the older record lets a rerun retire what a failed run may have left.
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(IndexShape.ROWS_FAMILY))
                .setMaxVersions(2)
                .setBloomFilterType(BloomType.ROW)
                .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
                .setCompressionType(like.getCompressionType())
                .build())
        .build();
  }

  /** A new table's split points, and how they were planned. */
  private record Planned(List<byte[]> splits, String how) {}

  /** Split points: one region per salt bucket, even over a hash, else sample quantiles. */
  private Planned splits(Supplier<SampledKeys> sampleKeys) {
    KeyLayout layout = definition.key().layout();
    try {
      if (layout.leadingSaltBuckets() > 0) {
        return new Planned(
            SplitPoints.plan(layout, layout.leadingSaltBuckets(), List.of()),
            layout.leadingSaltBuckets() + " regions, one per salt bucket");
      }
      if (layout.startsWithHash()) {
        return new Planned(
            SplitPoints.plan(layout, definition.regions(), List.of()),
            definition.regions() + " regions, even over the leading hash");
      }
      SampledKeys sample = sampleKeys.get();
      int regions = Math.min(definition.regions(), Math.max(1, sample.keys().size() / 10));
      List<byte[]> splits = SplitPoints.plan(layout, regions, sample.keys());
      return new Planned(
          splits,
          (splits.size() + 1)
              + " regions, at quantiles of "
              + sample.keys().size()
              + " index row keys (entries and row records) sampled from "
              + sample.from());
    } catch (LayoutException e) {
      throw new RekeyException("cannot plan the index table's regions: " + e.getMessage(), e);
    }
  }

  private static List<String> familyNames(TableDescriptor d) {
    List<String> names = new ArrayList<>();
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      names.add(f.getNameAsString());
    }
    return names;
  }
}
