package io.rekey.rekey;

import io.rekey.common.RekeyException;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.read.SourceReader;
import io.rekey.run.RunFiles;
import io.rekey.spark.JobContext;
import io.rekey.spark.ProgressReporter;
import io.rekey.spark.RejectLimit;
import io.rekey.spark.SparkCores;
import io.rekey.write.WriteEngine;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The Spark side of a rekey: how the source is read (the run's snapshot, or live), and the one
 * Spark job that maps every cell's key ({@link CellMapper}) and writes the cells as HFiles through
 * the write engine, stopping early once more rows are rejected than {@code --max-rejects} allows.
 * {@link RekeyJob} decides when it runs and records what it wrote in the run's manifest.
 */
final class CopyStage {
  /** More rows were rejected than {@code --max-rejects} allows: the job stopped, nothing loaded. */
  static final class TooManyRejects extends RekeyException {
    TooManyRejects(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * What the copy wrote.
   *
   * @param stats the mapper's counts, summed over its tasks
   * @param committed what the writers wrote and the driver committed
   */
  record Copied(MapStats stats, WriteEngine.Committed committed) {}

  private final JobContext job;
  private final JavaSparkContext sc;
  private final RekeyOptions options;
  private final RekeyPlanner.Planned planned;
  private final Path runDir;

  CopyStage(JobContext job, RekeyOptions options, RekeyPlanner.Planned planned, Path runDir) {
    this.job = job;
    this.sc = job.sc();
    this.options = options;
    this.planned = planned;
    this.runDir = runDir;
  }

  /**
   * Reads, maps and writes every cell as HFiles of run {@code runId}, committed into the run
   * directory's ledger; nothing is loaded.
   *
   * @param snapshot the snapshot to read, or null for a live scan
   * @throws TooManyRejects when the reject limit stopped the job
   */
  Copied copy(String snapshot, String runId) throws IOException {
    RekeyPlan plan = planned.plan();
    JavaPairRDD<ImmutableBytesWritable, Result> source = read(snapshot);
    int inputPartitions = source.getNumPartitions();
    LongAccumulator progress = sc.sc().longAccumulator("rekey cells read");
    LongAccumulator rejectedSoFar = sc.sc().longAccumulator("rekey rows rejected");
    CellMapper mapper =
        new CellMapper(
            options.mapping(),
            options.raw(),
            plan.collisionCheck(),
            runDir.toString(),
            new ShippedConfiguration(job.conf()),
            progress,
            rejectedSoFar);
    JavaPairRDD<byte[], byte[]> mapped =
        JavaPairRDD.fromJavaRDD(source.mapPartitionsWithIndex(mapper, true));
    WriteEngine engine = new WriteEngine(job.conf(), job.faults(), runDir, runId);
    sc.setJobGroup(
        "rekey",
        "rekey: read "
            + options.source()
            + ", map keys, write HFiles for "
            + plan.targetRegions()
            + " regions x "
            + plan.tasksPerRegion()
            + " tasks",
        false);
    WriteEngine.Committed committed;
    ProgressReporter reporter = new ProgressReporter("rekey", sc, progress, 0, 10);
    RejectLimit limit = new RejectLimit(sc, "rekey", rejectedSoFar, options.maxRejects());
    try {
      committed = engine.writeHFiles(mapped, destination());
    } catch (Exception e) { // SparkException is checked, and Spark's Java API throws it unsaid
      if (!limit.tripped()) {
        throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
      }
      throw new TooManyRejects(
          "at least "
              + limit.rejectedSoFar()
              + " rows could not be mapped, more than --max-rejects "
              + options.maxRejects()
              + ", so the job was stopped there and nothing was loaded. The rows and reasons found"
              + " so far are in "
              + RunFiles.rejectsGlob(runDir)
              + " (first: "
              + String.join(" | ", RunFiles.rejectExamples(job.conf(), runDir, 1))
              + "). Fix the key specs, or raise --max-rejects to copy without them",
          e);
    } finally {
      limit.close();
      reporter.close();
      sc.clearJobGroup();
    }
    return new Copied(mapStats(inputPartitions), committed);
  }

  /** The source's rows, every version: from {@code snapshot}, or live when it is null. */
  JavaPairRDD<ImmutableBytesWritable, Result> read(String snapshot) {
    Scan scan = sourceScan();
    if (snapshot == null) {
      return SourceReader.live(sc, job.conf(), options.source(), scan);
    }
    return SourceReader.fromSnapshot(
        sc,
        job.conf(),
        snapshot,
        restoreDir(snapshot),
        scan,
        SourceReader.readTasks(SparkCores.of(sc).cores()));
  }

  /** Rows with column-bound fields must arrive whole, so those are not read in batches. */
  Scan sourceScan() {
    int batch = options.mapping().source().columns().isEmpty() ? options.batch() : 0;
    return SourceReader.fullScan(batch, options.raw());
  }

  /** Where a read of {@code snapshot} restores its files. */
  Path restoreDir(String snapshot) {
    return new Path(runDir, "restore-" + snapshot);
  }

  /** The target as the write engine writes it: the plan's regions, families and file sizes. */
  WriteEngine.Destination destination() {
    RekeyPlan plan = planned.plan();
    return new WriteEngine.Destination(
        options.target(),
        plan.families(),
        planned.splitPoints(),
        plan.tasksPerRegion(),
        options.maxFileBytes(),
        plan.collisionCheck());
  }

  private MapStats mapStats(int partitions) throws IOException {
    MapStats total = MapStats.ZERO;
    for (String line : RunFiles.partitionCounts(job.conf(), runDir, partitions)) {
      total = total.plus(MapStats.fromLine(line));
    }
    return total;
  }
}
