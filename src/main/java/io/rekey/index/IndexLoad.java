package io.rekey.index;

import io.rekey.common.RekeyException;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.index.entries.IndexEntries;
import io.rekey.keys.KeyReject;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.spark.Faults;
import io.rekey.spark.JobContext;
import io.rekey.spark.RejectLimit;
import io.rekey.spark.SparkCores;
import io.rekey.write.BulkLoader;
import io.rekey.write.Ledger;
import io.rekey.write.Pressure;
import io.rekey.write.PutWriterStage;
import io.rekey.write.ShuffleCell;
import io.rekey.write.WriteEngine;
import io.rekey.write.WriteStats;
import io.rekey.write.WriterTasks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Writes index entries as HFiles and bulk-loads them: the part a full build and an incremental run
 * share. Entries are made per source row, partitioned by index region (several writer tasks per
 * region), sorted in HBase order and written with the index family's settings; the driver checks
 * that every row read is indexed, skipped or rejected and that the files hold every entry cell
 * before anything is loaded. Loading the same entries twice writes the same cells again, so a rerun
 * after a failure is harmless.
 */
public final class IndexLoad {
  private static final Logger LOG = LoggerFactory.getLogger(IndexLoad.class);
  private static final int REJECT_EXAMPLES = 5;
  private static final int SPLIT_SAMPLE = 10_000;

  private final JavaSparkContext sc;
  private final Configuration conf;
  private final Faults faults;
  private final IndexDefinition definition;
  private final Path runDir;

  public IndexLoad(JobContext job, IndexDefinition definition, Path runDir) {
    this.sc = job.sc();
    this.conf = job.conf();
    this.faults = job.faults();
    this.definition = definition;
    this.runDir = runDir;
  }

  /**
   * What was written and is ready to load.
   *
   * @param rejectsGlob where the rejected rows are, or null when there are none
   * @param ledger the committed HFiles, or null for Puts
   * @param pressure how far the cluster held the Puts back (none for HFiles)
   */
  public record Written(
      IndexTable.Layout table,
      IndexStats stats,
      long cellsWritten,
      long bytesWritten,
      int files,
      int tasksPerRegion,
      String rejectsGlob,
      List<String> rejectExamples,
      Ledger ledger,
      Pressure pressure) {}

  /**
   * Makes and writes the entries of the rows {@code read} gives.
   *
   * @param window the rows come from an incremental run's time window
   * @param stamp the entry cells' timestamp: the run's time (see {@link IndexEntries})
   * @throws RekeyException when more rows than {@code maxRejects} were rejected or the counts do
   *     not add up: with HFiles before anything is loaded, with Puts after the other rows' entries
   *     were written (correct ones; the caller then leaves the watermark where it was)
   */
  public Written write(
      TableRead read,
      boolean window,
      IndexTable indexTable,
      IndexRunOptions.Write how,
      long maxRejects,
      long stamp,
      String description) {
    try {
      FileSystem fs = runDir.getFileSystem(conf);
      if (fs.exists(runDir)) {
        // An earlier run of this index that failed: its entries are made again from the source.
        fs.delete(runDir, true);
      }
    } catch (IOException e) {
      throw new RekeyException("cannot use the run directory " + runDir + ": " + e.getMessage(), e);
    }
    ShippedConfiguration shipped = new ShippedConfiguration(conf);
    int inputPartitions = read.rows().getNumPartitions();
    sc.setJobGroup("index", description, false);
    // A new unsalted index table is split at quantiles of a sample of the entry keys.
    boolean sample = indexTable.needsSampleKeys();
    // From a snapshot, the keys are sampled from a few blocks of its store files, on the driver.
    IndexTable.SampledKeys fromFiles =
        sample ? sampleFromFiles(read, indexTable.sampleFamily()) : null;
    // Else they are sampled from the entries themselves; the entries are then kept (memory, else
    // local disk) from the pass that samples them to the pass that writes them, so the source is
    // read once.
    boolean persist = sample && fromFiles == null;
    LongAccumulator rejectedSoFar = sc.sc().longAccumulator("index rows rejected");
    JavaPairRDD<byte[], byte[]> cells =
        JavaPairRDD.fromJavaRDD(
            read.rows()
                .mapPartitionsWithIndex(
                    new IndexEntryStage(
                        definition, window, runDir.toString(), shipped, rejectedSoFar, stamp),
                    true));
    if (persist) {
      cells.persist(StorageLevel.MEMORY_AND_DISK_SER());
    }
    RejectLimit limit = new RejectLimit(sc, "index", rejectedSoFar, maxRejects);
    IndexTable.Layout table = null;
    try {
      table =
          indexTable.prepare(
              () -> fromFiles != null ? fromFiles : sampleEntryKeys(cells),
              how == IndexRunOptions.Write.HFILES);
      return write(cells, table, how, inputPartitions, maxRejects, shipped);
    } catch (Exception e) { // SparkException is checked, and Spark's Java API throws it unsaid
      if (!limit.tripped()) {
        throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
      }
      if (table != null) {
        // A stopped run ends with its new index table created, not with the creation under way
        // (the next run would find it half made).
        table.awaitTable(definition.indexTable());
      }
      throw new RekeyException(
          "at least "
              + limit.rejectedSoFar()
              + " rows could not be indexed, more than --max-rejects "
              + maxRejects
              + ", so the job was stopped there"
              + (how == IndexRunOptions.Write.PUTS
                  ? "; entries of other rows may have been written (correct, and written again by"
                      + " the next run), the watermark was not moved."
                  : " and nothing was loaded.")
              + " The rows and reasons found so far are in "
              + RunFiles.rejectsGlob(runDir)
              + ". Fix the definition, or raise --max-rejects to index without them",
          e);
    } finally {
      limit.close();
      sc.clearJobGroup();
      if (persist) {
        cells.unpersist(false);
      }
    }
  }

  /**
   * The distinct entry keys of about {@value #SPLIT_SAMPLE} rows read from the snapshot's store
   * files, or null when that cannot be done or gives no keys while the sampled rows exist (say the
   * key needs a column of another family than the one sampled).
   */
  private IndexTable.SampledKeys sampleFromFiles(TableRead read, byte[] family) {
    Optional<List<Result>> rows = read.sampleFromFiles(family, SPLIT_SAMPLE);
    if (rows.isEmpty()) {
      return null;
    }
    IndexEntries entries = definition.entries();
    TreeSet<byte[]> keys = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    for (Result row : rows.get()) {
      try {
        List<IndexEntries.Entry> made = entries.entries(row);
        for (IndexEntries.Entry e : made) {
          keys.add(e.key());
        }
        if (!made.isEmpty()) {
          // Its row record: the regions hold those too.
          keys.add(row.getRow());
        }
      } catch (KeyReject rejected) {
        // The writing pass rejects the row with its reason; a split point does without it.
      }
    }
    LOG.info(
        "index: {} entry keys from {} rows sampled from the store files of {}",
        keys.size(),
        rows.get().size(),
        definition.source());
    return keys.isEmpty() && !rows.get().isEmpty()
        ? null
        : new IndexTable.SampledKeys(
            new ArrayList<>(keys), rows.get().size() + " rows of the snapshot's store files");
  }

  /**
   * A uniform sample of about {@value #SPLIT_SAMPLE} entry keys, for the split points of a new
   * unsalted index table: the distinct entry rows whose keys hash lowest.
   */
  private static IndexTable.SampledKeys sampleEntryKeys(JavaPairRDD<byte[], byte[]> cells) {
    List<Tuple2<Long, byte[]>> perTask =
        cells
            .keys()
            .mapPartitions(
                it -> {
                  PriorityQueue<Tuple2<Long, byte[]>> lowest =
                      new PriorityQueue<>(
                          Comparator.comparingLong((Tuple2<Long, byte[]> t) -> t._1()).reversed());
                  Set<Long> taken = new HashSet<>();
                  while (it.hasNext()) {
                    byte[] cell = it.next();
                    int length = ShuffleCell.rowLength(cell);
                    long hash = mix(Bytes.hashCode(cell, ShuffleCell.ROW_OFFSET, length));
                    // An entry's cells share its row: take a row once.
                    if (lowest.size() == SPLIT_SAMPLE && hash >= lowest.peek()._1()
                        || taken.contains(hash)) {
                      continue;
                    }
                    byte[] row =
                        Arrays.copyOfRange(
                            cell, ShuffleCell.ROW_OFFSET, ShuffleCell.ROW_OFFSET + length);
                    lowest.add(new Tuple2<>(hash, row));
                    taken.add(hash);
                    if (lowest.size() > SPLIT_SAMPLE) {
                      taken.remove(lowest.poll()._1());
                    }
                  }
                  return lowest.iterator();
                })
            .collect();
    Map<Long, byte[]> distinct = new TreeMap<>();
    for (Tuple2<Long, byte[]> t : perTask) {
      distinct.putIfAbsent(t._1(), t._2());
    }
    List<byte[]> keys = new ArrayList<>();
    for (byte[] key : distinct.values()) {
      if (keys.size() == SPLIT_SAMPLE) {
        break;
      }
      keys.add(key);
    }
    return new IndexTable.SampledKeys(keys, "the entries of every row read");
  }

  /**
   * A new run's engine: its own id, so its files are told apart from earlier runs' in the store.
   */
  private WriteEngine engine() {
    return new WriteEngine(conf, faults, runDir, UUID.randomUUID().toString());
  }

  /**
   * The index table as the write engine writes it: the entries' family and the row records', its
   * regions, 1 GB files.
   */
  private WriteEngine.Destination destination(IndexTable.Layout table, int tasksPerRegion) {
    List<byte[]> starts = table.regionStarts();
    return new WriteEngine.Destination(
        definition.indexTable(),
        List.of(table.family(), table.rowsFamily()),
        starts.subList(Math.min(1, starts.size()), starts.size()),
        tasksPerRegion,
        1L << 30,
        false);
  }

  /** SplitMix64's finalizer: spreads a 32-bit hash over 64 bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private Written write(
      JavaPairRDD<byte[], byte[]> cells,
      IndexTable.Layout table,
      IndexRunOptions.Write how,
      int inputPartitions,
      long maxRejects,
      ShippedConfiguration shipped) {
    int tasksPerRegion = 1;
    WriteStats written;
    Ledger ledger = null;
    if (how == IndexRunOptions.Write.PUTS) {
      // Puts need the table itself, not only its split points.
      table.awaitTable(definition.indexTable());
      written =
          cells
              .mapPartitionsWithIndex(
                  new PutWriterStage(definition.indexTableName(), shipped), false)
              .collect()
              .stream()
              .reduce(WriteStats::plus)
              .orElse(WriteStats.NONE);
    } else {
      List<byte[]> starts = table.regionStarts();
      tasksPerRegion = WriterTasks.perRegion(SparkCores.of(sc).cores(), starts.size());
      WriteEngine.Committed committed =
          engine().writeHFiles(cells, destination(table, tasksPerRegion));
      written = committed.written();
      ledger = committed.ledger();
    }
    // The load needs the new table anyway; a refused run also ends with it created (and empty),
    // not with its creation still under way.
    table.awaitTable(definition.indexTable());
    IndexStats stats = IndexStats.ZERO;
    try {
      for (String line : RunFiles.partitionCounts(conf, runDir, inputPartitions)) {
        stats = stats.plus(IndexStats.fromLine(line));
      }
    } catch (IOException e) {
      throw new RekeyException("cannot read the entry stage's counts in " + runDir, e);
    }
    if (!stats.addsUp() || stats.cells() != written.cellsWritten()) {
      throw new RekeyException(
          "the counts do not add up: "
              + stats.rowsRead()
              + " rows read, "
              + stats.rowsIndexed()
              + " indexed + "
              + stats.rowsWithoutValue()
              + " without a value + "
              + stats.rowsRejected()
              + " rejected; "
              + stats.cells()
              + " entry cells made, "
              + written.cellsWritten()
              + " written. "
              + (how == IndexRunOptions.Write.PUTS
                  ? "The watermark was not moved."
                  : "Nothing was loaded.")
              + " This is a bug; the run's files are in "
              + runDir);
    }
    String rejects = stats.rowsRejected() == 0 ? null : RunFiles.rejectsGlob(runDir);
    if (stats.rowsRejected() > maxRejects) {
      throw new RekeyException(
          stats.rowsRejected()
              + " rows could not be indexed, more than --max-rejects "
              + maxRejects
              + (how == IndexRunOptions.Write.PUTS
                  ? "; the other rows' entries were written (correct, and written again by the"
                      + " next run), the watermark was not moved."
                  : "; nothing was loaded.")
              + " The rows and reasons are in "
              + rejects
              + " (first: "
              + String.join(" | ", RunFiles.rejectExamples(conf, runDir, 1))
              + "). Fix the definition, or raise --max-rejects to index without them");
    }
    return new Written(
        table,
        stats,
        written.cellsWritten(),
        written.bytesWritten(),
        ledger == null ? 0 : ledger.entries().size(),
        tasksPerRegion,
        rejects,
        rejects == null ? List.of() : RunFiles.rejectExamples(conf, runDir, REJECT_EXAMPLES),
        ledger,
        Pressure.of(written));
  }

  /**
   * Bulk-loads what {@link #write} committed (only what is not loaded yet), counts the entry cells
   * stored, then removes the run's temporary files.
   *
   * @return the load with its stored-cell check, or null for Puts
   */
  public BulkLoader.Loaded load(Written written) {
    written.table().awaitTable(definition.indexTable());
    BulkLoader.Loaded stored = null;
    if (written.ledger() != null && !written.ledger().entries().isEmpty()) {
      stored =
          new WriteEngine(conf, faults, runDir, written.ledger().runId())
              .load(
                  destination(written.table(), written.tasksPerRegion()),
                  written.ledger(),
                  written.cellsWritten());
    }
    try {
      runDir.getFileSystem(conf).delete(RunFiles.tmp(runDir), true);
    } catch (IOException e) {
      throw new RekeyException("cannot use the run directory " + runDir + ": " + e.getMessage(), e);
    }
    return stored;
  }
}
