package io.rekey.write;

import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.run.RunFiles;
import io.rekey.spark.Faults;
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
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Writes one partition's cells, all within one target region, sorted in HBase order, as HFiles: one
 * file per family, rolled at a row boundary once it passes the size limit, each with its family's
 * compression, bloom filter, block size and data block encoding. Files are written in the task
 * attempt's own directory and listed in the result the task returns; the task never moves them. The
 * driver commits the files of the one attempt per partition whose result Spark accepted ({@link
 * HFileCommit}), so a retried, speculative or zombie attempt cannot touch them.
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
  private final String runId;
  private final Faults faults;

  /**
   * @param runId the run's id in the ledger, with which every file is tagged
   * @param valuesCarryOldRows the pairs carry their cells' old rows (else null): check that no new
   *     row comes from two old rows
   * @param faults where a fault test breaks the writers
   */
  public HFileWriterStage(
      String runDir,
      String runId,
      String tableName,
      List<FamilySettings> families,
      long maxFileBytes,
      boolean valuesCarryOldRows,
      ShippedConfiguration conf,
      Faults faults) {
    this.faults = faults;
    this.valuesCarryOldRows = valuesCarryOldRows;
    this.runId = runId;
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
    final Path path;
    final String name;
    final StoreFileWriter writer;
    long bytes;
    long cells;
    byte[] firstRow;
    byte[] lastRow;

    OpenFile(String family, Path path, String name, StoreFileWriter writer) {
      this.family = family;
      this.familyBytes = Bytes.toBytes(family);
      this.path = path;
      this.name = name;
      this.writer = writer;
    }

    void append(KeyValue cell) throws IOException {
      writer.append(cell);
      if (lastRow == null
          || !Bytes.equals(
              lastRow,
              0,
              lastRow.length,
              cell.getRowArray(),
              cell.getRowOffset(),
              cell.getRowLength())) {
        lastRow = CellUtil.cloneRow(cell);
        if (firstRow == null) {
          firstRow = lastRow;
        }
      }
      bytes += cell.getLength();
      cells++;
    }

    WrittenFile close() throws IOException {
      HFiles.close(writer, HFiles.tag(runId, name));
      long size = path.getFileSystem(writerConf()).getFileStatus(path).getLen();
      return new WrittenFile(path.toString(), name, family, size, cells, firstRow, lastRow);
    }
  }

  private Configuration writerConf() {
    return conf.get();
  }

  private WriteStats write(int partition, Iterator<Tuple2<byte[], byte[]>> cells)
      throws IOException {
    Configuration c = new Configuration(conf.get());
    Path run = new Path(runDir);
    FileSystem fs = run.getFileSystem(c);
    TaskContext task = TaskContext.get();
    int attemptNumber = task == null ? 0 : task.attemptNumber();
    // This attempt's own directory: no other attempt of any task writes, renames or deletes here.
    Path attemptDir =
        new Path(
            RunFiles.tmp(run),
            "p"
                + partition
                + "-a"
                + attemptNumber
                + "-t"
                + (task == null ? System.nanoTime() : task.taskAttemptId()));
    Map<String, FamilySettings> settings = new HashMap<>();
    for (FamilySettings f : families) {
      settings.put(f.name(), f);
    }
    Map<String, OpenFile> open = new HashMap<>();
    Map<String, Integer> sequence = new HashMap<>();
    List<WrittenFile> finished = new ArrayList<>();
    long count = 0;
    long bytes = 0;
    long collisions = 0;
    List<String> examples = new ArrayList<>();
    byte[] rowKey = null;
    byte[] rowOwner = null;
    boolean rowCollided = false;
    boolean faultChecked = false;
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
        if (rowKey != null && !faultChecked) {
          faultChecked = true;
          faults.inject(Faults.Point.WRITER_MIDFILE, partition, attemptNumber);
        }
        rowKey = record;
        rowOwner = oldRow;
        rowCollided = false;
        // Roll only between rows, so one row's cells of a family stay in one file.
        if (rollDue(open.values())) {
          for (Map.Entry<String, OpenFile> e : new ArrayList<>(open.entrySet())) {
            if (e.getValue().bytes >= maxFileBytes) {
              finished.add(e.getValue().close());
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
            String name = family + "/" + String.format("p%05d-%03d", partition, seq);
            Path path = new Path(attemptDir, name);
            file = new OpenFile(family, path, name, HFiles.open(c, fs, path, f, tableName));
            open.put(family, file);
          }
        }
        file.append(cell);
        int length = cell.getLength();
        bytes += length;
        count++;
        at += length;
      }
    }
    for (OpenFile f : open.values()) {
      finished.add(f.close());
    }
    faults.inject(Faults.Point.WRITER_FINISHED, partition, attemptNumber);
    return new WriteStats(partition, count, bytes, finished, collisions, examples);
  }

  private boolean rollDue(Iterable<OpenFile> files) {
    for (OpenFile f : files) {
      if (f.bytes >= maxFileBytes) {
        return true;
      }
    }
    return false;
  }
}
