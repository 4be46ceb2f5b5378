package io.rekey.audit;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.KeyReject;
import io.rekey.sketch.BottomK;
import io.rekey.sketch.Distinct;
import io.rekey.sketch.LogHistogram;
import io.rekey.sketch.Quantiles;
import io.rekey.sketch.SharedThresholds;
import io.rekey.sketch.SmallCounts;
import io.rekey.sketch.TopK;
import io.rekey.sketch.UnsyncedBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The profile of a table, or of the part of it one task read: exact counts, mergeable sketches and
 * bounded samples. Its size does not grow with the data: quantiles are KLL sketches, qualifier and
 * key-prefix weights are exact up to a bound and then frequent-items sketches, top lists have a
 * fixed length and the samples a fixed size. Partitions are profiled apart and merged ({@link
 * #merge}); the merged profile is what {@link AuditAnalysis} reads.
 *
 * <p>Feed it the cells of each row in HBase's order with {@link #add}, rows in key order, and call
 * {@link #finish} at the end. A row may arrive in several batches.
 *
 * <p>Every statistic is updated from the same cell loop and merged in the same order; each
 * statistic's own logic lives in {@code sketch} or in a class of its own here ({@link
 * KeyPrefixCounts}, {@link FamilyProfile}, {@link RegionProfile}, {@link RowHash}).
 */
public final class TableProfile implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final int MISMATCH_EXAMPLES = 5;

  /** One cell in this many feeds the write-time sketches (a power of two). */
  static final int TIME_SAMPLING = 8;

  // Room for the rest of a serialized profile besides its samples: sketches, counters, top lists.
  private static final int SERIAL_MARGIN = 1 << 20;

  private final ProfileSettings settings;
  private final String firstFieldName;

  long rows;
  long cells;
  long bytes;
  long deleteMarkers;
  long keyBytesStored;
  long longKeyRows;
  long hugeCells;
  long wideRows;
  long sourceKeyMismatches;
  final List<String> mismatchExamples = new ArrayList<>();

  final KeyPrefixCounts prefixes = new KeyPrefixCounts();

  final TreeMap<String, FamilyProfile> families = new TreeMap<>();
  final HashMap<Integer, RegionProfile> regions = new HashMap<>();

  final SmallCounts keyLength = new SmallCounts();
  final SmallCounts cellsPerRow = new SmallCounts();
  final LogHistogram bytesPerRow = new LogHistogram();
  final SmallCounts columnsPerRow = new SmallCounts();
  final LogHistogram valueSize = new LogHistogram();
  final SmallCounts versionsPerColumn = new SmallCounts();

  final Distinct firstFieldDistinct = new Distinct();

  final TopK<Samples.RawRowSize> widestRows;
  final TopK<Samples.RawRowSize> largestRows;
  final TopK<Samples.RawBigCell> largestCells;
  final BottomK<Samples.Row> rowSample;
  final BottomK<Samples.Cell> cellSample;

  private transient RowState row;
  private transient List<FamilyProfile> familyList;
  private transient FamilyProfile lastFamily;
  // The timestamps of the region being read, looked up once per region rather than per cell.
  private transient Quantiles regionTimestamps;
  private transient RegionProfile currentRegion;
  private transient byte[] previousFirstField;
  private transient int regionIndex = -1;
  private transient byte[] regionEnd;
  private transient byte[][][] bindingColumns;

  public TableProfile(ProfileSettings settings) {
    this.settings = settings;
    this.firstFieldName =
        settings.sourceKey() == null ? null : settings.sourceKey().firstKeyField();
    this.widestRows = new TopK<>(settings.topK(), Samples.RawRowSize::columns);
    this.largestRows = new TopK<>(settings.topK(), Samples.RawRowSize::bytes);
    this.largestCells = new TopK<>(settings.topK(), Samples.RawBigCell::valueBytes);
    this.rowSample = new BottomK<>(settings.rowSampleSize(), Samples.ROW_CODEC);
    this.cellSample = new BottomK<>(settings.cellSampleSize(), Samples.CELL_CODEC);
  }

  public ProfileSettings settings() {
    return settings;
  }

  /**
   * Lets this profile's samples prune with the thresholds other tasks of the same audit ({@code
   * run}) reached in this JVM: a task then encodes only items that can still be in the merged
   * samples.
   */
  void shareSampleThresholds(String run) {
    rowSample.shareThreshold(SharedThresholds.of(run + "/rows"));
    cellSample.shareThreshold(SharedThresholds.of(run + "/cells"));
  }

  /**
   * Adds cells of the row {@code key}: a whole row, or the next batch of one. Cells come in HBase's
   * order (family, qualifier, newest first).
   */
  public void add(byte[] key, List<Cell> rowCells) {
    if (row == null || !Bytes.equals(row.key, key)) {
      endRow();
      beginRow(key);
    }
    for (Cell cell : rowCells) {
      addCell(cell);
    }
  }

  /** Ends the last row; call once after the last {@link #add}. */
  public TableProfile finish() {
    endRow();
    return this;
  }

  private void beginRow(byte[] key) {
    row = new RowState(key, settings.sourceKey() == null ? 0 : bindingCount());
    // Rows come in key order, so the region changes rarely: search only when the key leaves it.
    if (regionIndex < 0
        || Bytes.compareTo(key, settings.regionStarts().get(regionIndex)) < 0
        || regionEnd != null && Bytes.compareTo(key, regionEnd) >= 0) {
      regionIndex = regionOf(key);
      regionEnd =
          regionIndex + 1 < settings.regionStarts().size()
              ? settings.regionStarts().get(regionIndex + 1)
              : null;
      currentRegion = regions.computeIfAbsent(regionIndex, i -> new RegionProfile());
      regionTimestamps = currentRegion.timestamps;
    }
  }

  private int bindingCount() {
    return settings.sourceKey().columns().size();
  }

  /** The index of the region holding {@code key}: the last region starting at or before it. */
  int regionOf(byte[] key) {
    List<byte[]> starts = settings.regionStarts();
    int lo = 0;
    int hi = starts.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Bytes.compareTo(starts.get(mid), key) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private void addCell(Cell cell) {
    RowState r = row;
    // The cell as HBase stores it (a KeyValue without tags): key, family, qualifier, value, ts.
    long size =
        KeyValueUtil.length(
            cell.getRowLength(),
            cell.getFamilyLength(),
            cell.getQualifierLength(),
            cell.getValueLength(),
            0,
            false);
    long ts = cell.getTimestamp();
    r.cells++;
    r.bytes += size;
    if (ts > r.newestTs) {
      r.newestTs = ts;
    }
    FamilyProfile family = family(cell);
    family.cells++;
    family.bytes += size;
    if (ts < family.oldestTs) {
      family.oldestTs = ts;
    }
    RegionProfile region = currentRegion;
    if (ts < region.oldestTs) {
      region.oldestTs = ts;
    }
    if (ts > region.newestTs) {
      region.newestTs = ts;
    }
    if (cell.getType() != Cell.Type.Put) {
      deleteMarkers++;
      family.deleteMarkers++;
      regionTimestamps.update(ts);
      return;
    }
    byte[] qArray = cell.getQualifierArray();
    int qOffset = cell.getQualifierOffset();
    int qLength = cell.getQualifierLength();
    // Versions of a column are adjacent: compare with the previous cell's qualifier.
    Cell previous = r.previous;
    if (previous != null
        && r.columnFamily == family
        && sameBytes(
            previous.getQualifierArray(),
            previous.getQualifierOffset(),
            previous.getQualifierLength(),
            qArray,
            qOffset,
            qLength)) {
      r.versions++;
    } else {
      r.endColumn(this, r.columnFamily);
      r.columns++;
      r.versions = 1;
      if (r.columnFamily != family) {
        r.familyColumns = 0;
      }
      r.familyColumns++;
      r.columnFamily = family;
      bindColumn(r, cell);
    }
    // Counted per column position within the family: rows of a table mostly repeat the same
    // qualifiers in the same order, so the counter's position cache hits without hashing.
    family.qualifiers.add(qArray, qOffset, qLength, r.familyColumns - 1, size);
    long cellHash = RowHash.mix64(r.hash + ts * 0x9E3779B97F4A7C15L + r.columns * 0xC2B2AE3DL);
    // When cells were written is sketched from a uniform one-in-TIME_SAMPLING sample of them (a
    // KLL update is the costliest step per cell); the hash is independent of key and time order.
    if ((cellHash & (TIME_SAMPLING - 1)) == 0) {
      regionTimestamps.update(ts);
    }
    r.previous = cell;
    int valueLength = cell.getValueLength();
    valueSize.update(valueLength);
    if (valueLength > settings.hugeCellBytes()) {
      hugeCells++;
    }
    if (largestCells.accepts(valueLength)) {
      largestCells.offer(
          new Samples.RawBigCell(
              r.key,
              family.name,
              Arrays.copyOfRange(qArray, qOffset, qOffset + qLength),
              valueLength,
              ts));
    }
    if (cellSample.accepts(cellHash)) {
      cellSample.offer(cellHash, new Samples.Cell(r.key, ts, r.columnValues));
    }
  }

  /**
   * Whether two byte ranges are equal. Family and qualifier names are a few bytes: a plain loop
   * beats the general comparer's set-up for them.
   */
  static boolean sameBytes(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    if (aLen != bLen) {
      return false;
    }
    for (int i = 0; i < aLen; i++) {
      if (a[aOff + i] != b[bOff + i]) {
        return false;
      }
    }
    return true;
  }

  private void bindColumn(RowState r, Cell cell) {
    if (r.columnValues.length == 0) {
      return;
    }
    if (bindingColumns == null) {
      List<ColumnBinding> bindings = settings.sourceKey().columns();
      bindingColumns = new byte[bindings.size()][][];
      for (int i = 0; i < bindings.size(); i++) {
        bindingColumns[i] =
            new byte[][] {
              Bytes.toBytes(bindings.get(i).family()), Bytes.toBytes(bindings.get(i).qualifier())
            };
      }
    }
    for (int i = 0; i < bindingColumns.length; i++) {
      // The first Put of a column in a row is its newest value.
      if (r.columnValues[i] == null
          && CellUtil.matchingColumn(cell, bindingColumns[i][0], bindingColumns[i][1])) {
        r.columnValues[i] = CellUtil.cloneValue(cell);
      }
    }
  }

  private FamilyProfile family(Cell cell) {
    byte[] array = cell.getFamilyArray();
    int offset = cell.getFamilyOffset();
    int length = cell.getFamilyLength();
    FamilyProfile last = lastFamily;
    if (last != null
        && sameBytes(last.nameBytes, 0, last.nameBytes.length, array, offset, length)) {
      return last;
    }
    if (familyList == null) {
      familyList = new ArrayList<>(families.values());
    }
    for (FamilyProfile f : familyList) {
      if (sameBytes(f.nameBytes, 0, f.nameBytes.length, array, offset, length)) {
        lastFamily = f;
        return f;
      }
    }
    FamilyProfile f = new FamilyProfile(CellUtil.cloneFamily(cell));
    families.put(f.name, f);
    familyList.add(f);
    lastFamily = f;
    return f;
  }

  private void endRow() {
    RowState r = row;
    if (r == null) {
      return;
    }
    row = null;
    r.endColumn(this, r.columnFamily);
    rows++;
    cells += r.cells;
    bytes += r.bytes;
    int keyLen = r.key.length;
    keyLength.update(keyLen);
    cellsPerRow.update(r.cells);
    bytesPerRow.update(r.bytes);
    columnsPerRow.update(r.columns);
    keyBytesStored += (long) keyLen * r.cells;
    if (keyLen > settings.longKeyBytes()) {
      longKeyRows++;
    }
    if (r.columns > settings.wideRowColumns()) {
      wideRows++;
    }
    RegionProfile region = currentRegion;
    region.rows++;
    region.cells += r.cells;
    region.bytes += r.bytes;
    prefixes.add(r.key, r.cells);
    if (widestRows.accepts(r.columns) || largestRows.accepts(r.bytes)) {
      Samples.RawRowSize size = new Samples.RawRowSize(r.key, r.cells, r.columns, r.bytes);
      widestRows.offer(size);
      largestRows.offer(size);
    }
    if (rowSample.accepts(r.hash)) {
      rowSample.offer(r.hash, new Samples.Row(r.key, r.cells, r.bytes, r.newestTs, r.columnValues));
    }
    firstField(r);
  }

  private void firstField(RowState r) {
    String field = firstFieldName;
    if (field == null) {
      return;
    }
    byte[] value;
    try {
      value = settings.sourceKey().decodeField(r.key, field).canonicalBytes();
    } catch (KeyReject e) {
      sourceKeyMismatches++;
      if (mismatchExamples.size() < MISMATCH_EXAMPLES) {
        mismatchExamples.add(Bytes.toStringBinary(r.key) + ": " + e.getMessage());
      }
      return;
    }
    // Rows come in key order, so equal leading values come in runs: count a run once. Which
    // values are heavy is read from the row sample on the driver, which costs nothing here.
    if (!Arrays.equals(value, previousFirstField)) {
      firstFieldDistinct.update(value);
      previousFirstField = value;
    }
  }

  /** Adds another profile (of other rows) into this one. */
  public TableProfile merge(TableProfile o) {
    rows += o.rows;
    cells += o.cells;
    bytes += o.bytes;
    deleteMarkers += o.deleteMarkers;
    keyBytesStored += o.keyBytesStored;
    longKeyRows += o.longKeyRows;
    hugeCells += o.hugeCells;
    wideRows += o.wideRows;
    sourceKeyMismatches += o.sourceKeyMismatches;
    for (String example : o.mismatchExamples) {
      if (mismatchExamples.size() < MISMATCH_EXAMPLES) {
        mismatchExamples.add(example);
      }
    }
    prefixes.merge(o.prefixes);
    o.families.forEach((name, f) -> families.merge(name, f, FamilyProfile::merge));
    familyList = null;
    lastFamily = null;
    o.regions.forEach((index, r) -> regions.merge(index, r, RegionProfile::merge));
    keyLength.merge(o.keyLength);
    cellsPerRow.merge(o.cellsPerRow);
    bytesPerRow.merge(o.bytesPerRow);
    columnsPerRow.merge(o.columnsPerRow);
    valueSize.merge(o.valueSize);
    versionsPerColumn.merge(o.versionsPerColumn);
    firstFieldDistinct.merge(o.firstFieldDistinct);
    widestRows.merge(o.widestRows);
    largestRows.merge(o.largestRows);
    largestCells.merge(o.largestCells);
    rowSample.merge(o.rowSample);
    cellSample.merge(o.cellSample);
    return this;
  }

  /** The profile as bytes, to travel from a task to the driver whatever Spark's serializer. */
  public byte[] toBytes() {
    // The samples are most of a profile (megabytes): a buffer sized for them up front is not
    // copied over and over as it doubles from nothing.
    long samples = rowSample.serializedBytes() + cellSample.serializedBytes();
    UnsyncedBytes.Out buffer =
        new UnsyncedBytes.Out((int) Math.min(Integer.MAX_VALUE - 16, samples + SERIAL_MARGIN));
    try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
      out.writeObject(this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize a table profile", e);
    }
    return Arrays.copyOf(buffer.array(), buffer.size());
  }

  public static TableProfile fromBytes(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return (TableProfile) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot read a table profile: " + e.getMessage(), e);
    }
  }

  /** What the profiler tracks while a row is read. */
  private static final class RowState {
    final byte[] key;
    final long hash;
    final byte[][] columnValues;
    long cells;
    long bytes;
    long columns;
    long versions;
    long newestTs = Long.MIN_VALUE;
    Cell previous;
    FamilyProfile columnFamily;
    // Columns of the current family so far in this row.
    int familyColumns;

    RowState(byte[] key, int bindings) {
      this.key = key;
      this.hash = RowHash.of(key);
      this.columnValues = new byte[bindings][];
    }

    /** Records the versions of the column just finished. */
    void endColumn(TableProfile profile, FamilyProfile family) {
      if (versions > 0) {
        profile.versionsPerColumn.update(versions);
        if (family != null) {
          family.maxVersions = Math.max(family.maxVersions, versions);
        }
      }
      versions = 0;
    }
  }
}
