package io.rekey.read;

import io.rekey.common.RekeyException;
import io.rekey.spark.SparkCores;
import io.rekey.spark.SparkSessions;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Reads a table into Spark: from a snapshot's HFiles (TableSnapshotInputFormat: a consistent point
 * in time, no load on the region servers) or with a live scan (TableInputFormat). Full reads come
 * in about {@link #readTasks} partitions, big regions cut into key ranges of their own ({@link
 * RegionCuts}); windowed live scans in one per region. Every version of every cell is read; wide
 * rows arrive in batches of cells.
 */
public final class SourceReader {
  /** TableSnapshotInputFormatImpl.SNAPSHOT_INPUTFORMAT_SCAN_METRICS_ENABLED. */
  static final String SNAPSHOT_SCAN_METRICS = "hbase.TableSnapshotInputFormat.scan_metrics.enabled";

  private SourceReader() {}

  /**
   * Refuses a Spark context that would drop HBase's zero-length input splits (and with them every
   * row of small regions, or of every snapshot region).
   */
  static void requireEmptySplitsKept(JavaSparkContext sc) {
    if (sc.getConf().getBoolean(SparkSessions.IGNORE_EMPTY_SPLITS, false)) {
      throw new RekeyException(
          SparkSessions.IGNORE_EMPTY_SPLITS
              + " is true in this Spark session, which would skip HBase regions whose splits"
              + " report length 0 and lose their rows; set it to false (--conf "
              + SparkSessions.IGNORE_EMPTY_SPLITS
              + "=false)");
    }
  }

  /** The scan both ways use: all versions, batched for wide rows, no block cache pollution. */
  public static Scan fullScan(int batch) {
    return fullScan(batch, false);
  }

  /**
   * The full scan, raw when asked: then delete markers and the cells they hide are read too, so a
   * copy can mask exactly what the source masks.
   */
  public static Scan fullScan(int batch, boolean raw) {
    Scan scan = plainScan(batch);
    scan.setRaw(raw);
    return scan;
  }

  private static Scan plainScan(int batch) {
    Scan scan = new Scan().readAllVersions().setCacheBlocks(false).setCaching(500);
    if (batch > 0) {
      scan.setBatch(batch);
    }
    return scan;
  }

  /**
   * How many tasks to read a snapshot with: two per core, so every core stays busy even when one
   * region holds most of the data (big regions get more of them); never fewer than one per region.
   */
  public static int readTasks(int parallelism) {
    return 2 * parallelism;
  }

  /** Reads the snapshot {@code snapshot}, restoring its links under {@code restoreDir}. */
  public static JavaPairRDD<ImmutableBytesWritable, Result> fromSnapshot(
      JavaSparkContext sc, Configuration conf, String snapshot, Path restoreDir, Scan scan) {
    return fromSnapshot(sc, conf, snapshot, restoreDir, scan, 1);
  }

  /**
   * Reads a snapshot in about {@code readTasks} tasks: regions cut into key ranges read by tasks of
   * their own, big regions into more ({@link SubdividedSnapshotInputFormat}).
   */
  public static JavaPairRDD<ImmutableBytesWritable, Result> fromSnapshot(
      JavaSparkContext sc,
      Configuration conf,
      String snapshot,
      Path restoreDir,
      Scan scan,
      int readTasks) {
    requireEmptySplitsKept(sc);
    try {
      Job job = Job.getInstance(new Configuration(conf));
      // Scan metrics make the record reader update Hadoop counters for every row; Spark gives it
      // no real reporter, so each update looks up counter names through ResourceBundles and
      // throws and catches an exception: it made snapshot reads 7x slower than a live scan.
      job.getConfiguration().setBoolean(SNAPSHOT_SCAN_METRICS, false);
      job.getConfiguration()
          .set(TableInputFormat.SCAN, TableMapReduceUtil.convertScanToString(scan));
      job.getConfiguration().setInt(SubdividedSnapshotInputFormat.READ_TASKS, readTasks);
      TableSnapshotInputFormat.setInput(job, snapshot, restoreDir);
      return sc.newAPIHadoopRDD(
          job.getConfiguration(),
          SubdividedSnapshotInputFormat.class,
          ImmutableBytesWritable.class,
          Result.class);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read snapshot "
              + snapshot
              + " (restore dir "
              + restoreDir
              + "): "
              + e.getMessage()
              + "; snapshot reads need the cluster's hbase.rootdir readable from here (give"
              + " --hbase-conf with the cluster's hbase-site.xml), or use --live-scan",
          e);
    }
  }

  /**
   * A raw scan of one cell per row among the cells stamped at or after {@code since} (Puts and
   * delete markers): the rows written since then. Its time range lets region servers skip every
   * store file entirely older than {@code since}, so it costs what the recent writes cost.
   */
  public static Scan stampedFrom(long since) {
    Scan scan = new Scan().setRaw(true).setCacheBlocks(false).setFilter(new FirstKeyOnlyFilter());
    try {
      return scan.setTimeRange(since, Long.MAX_VALUE);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read from " + since, e);
    }
  }

  /** Scans {@code table} through the region servers, one scan per region. */
  public static JavaPairRDD<ImmutableBytesWritable, Result> live(
      JavaSparkContext sc, Configuration conf, TableName table, Scan scan) {
    return live(sc, conf, table, scan, 0);
  }

  /**
   * Scans {@code table} through the region servers in about {@link #readTasks} scans for this Spark
   * context, as a snapshot read is cut: a full read of a table whose data is not spread evenly over
   * its regions.
   */
  public static JavaPairRDD<ImmutableBytesWritable, Result> liveInPieces(
      JavaSparkContext sc, Configuration conf, TableName table, Scan scan) {
    return live(sc, conf, table, scan, readTasks(SparkCores.of(sc).cores()));
  }

  private static JavaPairRDD<ImmutableBytesWritable, Result> live(
      JavaSparkContext sc, Configuration conf, TableName table, Scan scan, int readTasks) {
    requireEmptySplitsKept(sc);
    try {
      Configuration c = new Configuration(conf);
      if (readTasks > 0) {
        c.setInt(SharedConnectionTableInputFormat.READ_TASKS, readTasks);
      }
      c.set(TableInputFormat.INPUT_TABLE, table.getNameAsString());
      c.set(TableInputFormat.SCAN, TableMapReduceUtil.convertScanToString(scan));
      return sc.newAPIHadoopRDD(
          c, SharedConnectionTableInputFormat.class, ImmutableBytesWritable.class, Result.class);
    } catch (IOException e) {
      throw new RekeyException("cannot scan " + table + ": " + e.getMessage(), e);
    }
  }
}
