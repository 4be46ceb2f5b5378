package io.rekey.write;

import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.spark.Faults;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.spark.api.java.JavaPairRDD;

/**
 * The write half of every job that makes HFiles (rekey, index build and update): shuffle records
 * partitioned by target region ({@link RegionPartitioner}), sorted in HBase order and written per
 * family in each task attempt's own directory ({@link HFileWriterStage}), committed by the driver
 * one attempt per partition into the ledger ({@link HFileCommit}), then bulk-loaded once each with
 * the stored cells counted from the table's store files ({@link BulkLoader}). The jobs make the
 * records and check their own counts; everything from the shuffle to the store files happens here.
 *
 * @param conf the job's settings, shipped to the writers
 * @param faults where a fault test breaks the writers or the load ({@link Faults#NONE} outside)
 * @param runDir the run directory (see {@link io.rekey.run.RunFiles})
 * @param runId the run's id: its files are tagged with it
 */
public record WriteEngine(Configuration conf, Faults faults, Path runDir, String runId) {
  /**
   * The table written and how.
   *
   * @param splitPoints region boundaries after the first region (empty: one region)
   * @param tasksPerRegion writer tasks per region, so a hot region is not one slow task
   * @param maxFileBytes roll a family's file at a row boundary past this size
   * @param checkCollisions the records' values carry their old rows: count new rows made from two
   */
  public record Destination(
      TableName table,
      List<FamilySettings> families,
      List<byte[]> splitPoints,
      int tasksPerRegion,
      long maxFileBytes,
      boolean checkCollisions) {
    public Destination {
      families = List.copyOf(families);
      splitPoints = List.copyOf(splitPoints);
    }

    /** The most files one writer task set can leave in one region's family, for the loader. */
    int maxFilesPerRegionPerFamily() {
      return tasksPerRegion * 4;
    }
  }

  /**
   * What the writers wrote and the driver committed.
   *
   * @param written the writers' totals, collisions included
   */
  public record Committed(WriteStats written, Ledger ledger) {}

  /**
   * Partitions, sorts and writes {@code records} ({@link ShuffleCell} pairs) as HFiles, then
   * commits the accepted attempts' files. Runs one Spark job, in the caller's job group.
   */
  public Committed writeHFiles(JavaPairRDD<byte[], byte[]> records, Destination to) {
    ShippedConfiguration shipped = new ShippedConfiguration(conf);
    RegionPartitioner partitioner =
        new RegionPartitioner(to.splitPoints().toArray(new byte[0][]), to.tasksPerRegion());
    HFileWriterStage writer =
        new HFileWriterStage(
            runDir.toString(),
            runId,
            to.table().getNameAsString(),
            to.families(),
            to.maxFileBytes(),
            to.checkCollisions(),
            shipped,
            faults);
    List<WriteStats> perTask =
        records.partitionBy(partitioner).mapPartitionsWithIndex(writer, false).collect();
    WriteStats written = perTask.stream().reduce(WriteStats::plus).orElse(WriteStats.NONE);
    // Exactly the files of the attempts Spark accepted, one per partition, into the load directory.
    return new Committed(written, HFileCommit.commit(conf, runDir, runId, perTask));
  }

  /** Loads what the ledger has not seen loaded, and counts the cells stored. */
  public BulkLoader.Loaded load(Destination to, Ledger ledger, long cellsWritten) {
    return BulkLoader.load(
        conf,
        faults,
        to.table(),
        runDir,
        ledger,
        cellsWritten,
        to.families(),
        to.maxFilesPerRegionPerFamily());
  }
}
