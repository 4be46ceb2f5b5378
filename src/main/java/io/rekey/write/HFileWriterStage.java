package io.rekey.hbase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Writes one partition's cells, all within one target region, sorted in HBase order, as HFiles: one
 * file per family, rolled at a row boundary once it passes the size limit, each with its family's
 * compression, bloom filter, block size and data block encoding. Files are written under the
 * attempt's own temporary directory and renamed into {@code hfiles/FAMILY/} only when the whole
 * partition is written.
 */
public final class HFileWriterStage
    implements Function2<Integer, Iterator<Tuple2<byte[], byte[]>>, Iterator<WriteStats>> {
  private static final long serialVersionUID = 1L;
  private static final int MAX_COLLISION_EXAMPLES = 10;

  private final String runDir;
  private final String tableName;
  private final List<FamilySettings> families;
  private final long maxFileBytes;
  private final ShippedConfiguration conf;
  private final boolean valuesCarryOldRows;

  /**
   * @param valuesCarryOldRows the pairs carry their cells' old rows (else null): check that no new
   *     row comes from two old rows
   */
  public HFileWriterStage(
      String runDir,
      String tableName,
      List<FamilySettings> families,
      long maxFileBytes,
      boolean valuesCarryOldRows,
      ShippedConfiguration conf) {
    this.valuesCarryOldRows = valuesCarryOldRows;
    this.runDir = runDir;
    this.tableName = tableName;
    this.families = List.copyOf(families);
    this.maxFileBytes = maxFileBytes;
    this.conf = conf;
  }

  @Override
  public Iterator<WriteStats> call(Integer partition, Iterator<Tuple2<byte[], byte[]>> cells) {
    try {
      return List.of(write(partition, sorted(cells))).iterator();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write HFiles for partition " + partition + " under " + runDir, e);
    }
  }

  /**
   * The partition's pairs in HBase order. The shuffle only partitions them; they are sorted here
   * ({@link CellSorter}), in the task's execution memory, spilling to local disk past it.
   */
  private static Iterator<Tuple2<byte[], byte[]>> sorted(Iterator<Tuple2<byte[], byte[]>> cells) {
    TaskContext task = TaskContext.get();
    CellSorter sorter =
        task != null
            ? CellSorter.forTask(task)
            : CellSorter.withBudget(
                Runtime.getRuntime().maxMemory() / 4,
                new java.io.File(System.getProperty("java.io.tmpdir")));
    while (cells.hasNext()) {
      Tuple2<byte[], byte[]> next = cells.next();
      sorter.add(next._1(), next._2());
    }
    return sorter.sorted();
  }

  private final class OpenFile {
    final String family;
    final byte[] familyBytes;
    final Path tmp;
    final StoreFileWriter writer;
    long bytes;

    OpenFile(String family, Path tmp, StoreFileWriter writer) {
      this.family = family;
      this.familyBytes = Bytes.toBytes(family);
      this.tmp = tmp;
      this.writer = writer;
    }
  }

  private WriteStats write(int partition, Iterator<Tuple2<byte[], byte[]>> cells)
      throws IOException {
    Configuration c = new Configuration(conf.get());
    Path run = new Path(runDir);
    FileSystem fs = run.getFileSystem(c);
    long attempt = TaskContext.get() == null ? 0 : TaskContext.get().taskAttemptId();
    Path tmpDir = new Path(RunFiles.tmp(run), partition + "-" + attempt);
    Map<String, FamilySettings> settings = new HashMap<>();
    for (FamilySettings f : families) {
      settings.put(f.name(), f);
    }
    Map<String, OpenFile> open = new HashMap<>();
    Map<String, Integer> sequence = new HashMap<>();
    List<OpenFile> finished = new ArrayList<>();
    long count = 0;
    long bytes = 0;
    long collisions = 0;
    List<String> examples = new ArrayList<>();
    byte[] rowKey = null;
    byte[] rowOwner = null;
    boolean rowCollided = false;
    OpenFile file = null; // the file of the last cell's family
    while (cells.hasNext()) {
      Tuple2<byte[], byte[]> next = cells.next();
      // One or more cells of one row (ShuffleCell), with the old row they came from.
      byte[] record = next._1();
      byte[] oldRow = valuesCarryOldRows ? next._2() : null;
      int rowLength = ShuffleCell.rowLength(record);
      boolean newRow =
          rowKey == null
              || Bytes.compareTo(
                      rowKey,
                      ShuffleCell.ROW_OFFSET,
                      ShuffleCell.rowLength(rowKey),
                      record,
                      ShuffleCell.ROW_OFFSET,
                      rowLength)
                  != 0;
      if (newRow) {
        rowKey = record;
        rowOwner = oldRow;
        rowCollided = false;
        // Roll only between rows, so one row's cells of a family stay in one file.
        if (rollDue(open.values())) {
          for (Map.Entry<String, OpenFile> e : new ArrayList<>(open.entrySet())) {
            if (e.getValue().bytes >= maxFileBytes) {
              finished.add(close(e.getValue()));
              open.remove(e.getKey());
            }
          }
          file = null;
        }
      } else if (oldRow != null && !rowCollided && !Arrays.equals(rowOwner, oldRow)) {
        rowCollided = true;
        collisions++;
        if (examples.size() < MAX_COLLISION_EXAMPLES) {
          examples.add(
              "new row '"
                  + Bytes.toStringBinary(record, ShuffleCell.ROW_OFFSET, rowLength)
                  + "' from old rows '"
                  + Bytes.toStringBinary(rowOwner)
                  + "' and '"
                  + Bytes.toStringBinary(oldRow)
                  + "'");
        }
      }
      for (int at = 0; at < record.length; ) {
        KeyValue cell = ShuffleCell.asKeyValue(record, at);
        // Cells come sorted by row, then family: the family rarely changes from one to the next.
        if (file == null
            || !Bytes.equals(
                file.familyBytes,
                0,
                file.familyBytes.length,
                cell.getFamilyArray(),
                cell.getFamilyOffset(),
                cell.getFamilyLength())) {
          String family =
              Bytes.toString(cell.getFamilyArray(), cell.getFamilyOffset(), cell.getFamilyLength());
          file = open.get(family);
          if (file == null) {
            FamilySettings f = settings.get(family);
            if (f == null) {
              throw new IOException(
                  "a cell of family '"
                      + family
                      + "' has no family in the target table "
                      + tableName);
            }
            int seq = sequence.merge(family, 1, Integer::sum);
            file = open(c, fs, tmpDir, f, partition, seq);
            open.put(family, file);
          }
        }
        file.writer.append(cell);
        int length = cell.getLength();
        file.bytes += length;
        bytes += length;
        count++;
        at += length;
      }
    }
    for (OpenFile f : open.values()) {
      finished.add(close(f));
    }
    List<String> names = new ArrayList<>();
    Path hfiles = RunFiles.hfiles(run);
    for (OpenFile f : finished) {
      String name = f.family + "/" + f.tmp.getName();
      RunFiles.replace(fs, f.tmp, new Path(hfiles, name));
      names.add(name);
    }
    fs.delete(tmpDir, true);
    return new WriteStats(partition, count, bytes, names, collisions, examples);
  }

  private boolean rollDue(Iterable<OpenFile> files) {
    for (OpenFile f : files) {
      if (f.bytes >= maxFileBytes) {
        return true;
      }
    }
    return false;
  }

  private OpenFile open(
      Configuration c, FileSystem fs, Path tmpDir, FamilySettings f, int partition, int seq)
      throws IOException {
    BloomType bloom = BloomType.valueOf(f.bloomType());
    Configuration writerConf = c;
    if (bloom == BloomType.ROWPREFIX_FIXED_LENGTH && f.bloomParam() != null) {
      writerConf = new Configuration(c);
      writerConf.set(BloomFilterUtil.PREFIX_LENGTH_KEY, f.bloomParam());
    }
    HFileContextBuilder context =
        new HFileContextBuilder()
            .withCompression(Compression.Algorithm.valueOf(f.compression()))
            .withDataBlockEncoding(DataBlockEncoding.valueOf(f.dataBlockEncoding()))
            .withChecksumType(StoreUtils.getChecksumType(writerConf))
            .withBytesPerCheckSum(StoreUtils.getBytesPerChecksum(writerConf))
            .withBlockSize(f.blockSize())
            .withColumnFamily(Bytes.toBytes(f.name()))
            .withTableName(Bytes.toBytes(tableName))
            .withCreateTime(System.currentTimeMillis());
    if (HFile.getFormatVersion(writerConf) >= HFile.MIN_FORMAT_VERSION_WITH_TAGS) {
      context.withIncludesTags(true);
    }
    Path path = new Path(new Path(tmpDir, f.name()), String.format("p%05d-%03d", partition, seq));
    StoreFileWriter writer =
        new StoreFileWriter.Builder(writerConf, CacheConfig.DISABLED, fs)
            .withFilePath(path)
            .withBloomType(bloom)
            .withFileContext(context.build())
            .build();
    return new OpenFile(f.name(), path, writer);
  }

  private static OpenFile close(OpenFile f) throws IOException {
    long now = System.currentTimeMillis();
    f.writer.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(now));
    f.writer.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes("hbase-rekey"));
    // Several files may cover one region: none of them is the product of a major compaction.
    f.writer.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(false));
    f.writer.appendTrackedTimestampsToMetadata();
    f.writer.close();
    return f;
  }
}
