package io.rekey.read;

import io.rekey.hbase.TableAdmin;
import io.rekey.options.ReadMode;
import io.rekey.run.RunFiles;
import io.rekey.security.Grant;
import io.rekey.security.GrantCheck;
import io.rekey.security.MissingGrantException;
import io.rekey.spark.SparkCores;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One read of a table for one job, live or through a snapshot taken for it; closing it deletes the
 * snapshot and its restore directory. The one snapshot lifecycle of audit, index, scrutiny and
 * verify; rekey's own run snapshot is the run's (its manifest names it, a resumed run verifies
 * against it, and the run deletes it when done or failed), and rekey verifies through this class
 * when that snapshot is gone.
 */
public final class TableRead implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TableRead.class);

  private final Connection connection;
  private final Configuration conf;
  private final TableName table;
  private final JavaPairRDD<ImmutableBytesWritable, Result> rows;
  private final String snapshot;
  private final Path restore;

  private TableRead(
      Connection connection,
      Configuration conf,
      TableName table,
      JavaPairRDD<ImmutableBytesWritable, Result> rows,
      String snapshot,
      Path restore) {
    this.connection = connection;
    this.conf = conf;
    this.table = table;
    this.rows = rows;
    this.snapshot = snapshot;
    this.restore = restore;
  }

  /**
   * @param purpose names the snapshot ({@code purpose-TABLE-millis})
   * @param staging the staging directory the snapshot is restored under
   */
  public static TableRead open(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      TableName table,
      Scan scan,
      ReadMode read,
      Path staging,
      String purpose) {
    if (read == ReadMode.LIVE_SCAN) {
      return new TableRead(
          connection, conf, table, SourceReader.liveInPieces(sc, conf, table, scan), null, null);
    }
    // A snapshot restored where the job cannot write would be left behind: check first.
    RunFiles.checkUsable(conf, staging, sc.master());
    String snapshot =
        purpose
            + "-"
            + table.getNameAsString().replace(':', '_')
            + "-"
            + System.currentTimeMillis();
    TableAdmin admin = new TableAdmin(connection);
    admin.snapshot(table, snapshot);
    Path restore = new Path(staging, "restore-" + snapshot);
    try {
      return new TableRead(
          connection,
          conf,
          table,
          SourceReader.fromSnapshot(
              sc, conf, snapshot, restore, scan, SourceReader.readTasks(SparkCores.of(sc).cores())),
          snapshot,
          restore);
    } catch (RuntimeException e) {
      // The restore failed (a wrong hbase.rootdir, a staging filesystem that refuses it): the
      // snapshot would pin its HFiles in the archive for good.
      admin.deleteSnapshotAfter(snapshot, e);
      deleteRestore(conf, restore);
      throw e;
    }
  }

  /**
   * Below this many bytes of store files and memstore, the second table of a comparison is scanned
   * live rather than through a snapshot (set by {@link ReadOptions#TARGET_SNAPSHOT_MIB}; 0
   * snapshots every table). A snapshot costs its flush, its procedure and its restore, seconds
   * whatever the table's size, where a live scan of a small table costs a fraction of one; past
   * some tens of MiB the snapshot read wins.
   */
  public static final String COMPARED_SNAPSHOT_MIN_BYTES = "rekey.compare.snapshot.min.bytes";

  static final long DEFAULT_COMPARED_SNAPSHOT_MIN_BYTES = 64L << 20;

  /**
   * {@link #open} for the second table of a comparison (the target of verify and repair): through a
   * snapshot of its own, as the first is read, where it holds at least {@link
   * #COMPARED_SNAPSHOT_MIN_BYTES} and this user may take and read one; else live. A target is often
   * the user's own table that an admin's grants for the source do not reach: on a secure cluster
   * HBase gives a table's readers HDFS ACLs on its snapshots only where the table asks for them,
   * and the user may lack ADMIN on a table an admin made. A comparison then still runs, with the
   * region servers serving that side.
   */
  public static TableRead openCompared(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      TableName table,
      Scan scan,
      ReadMode read,
      Path staging,
      String purpose) {
    return open(
        sc,
        connection,
        conf,
        table,
        scan,
        comparedMode(connection, conf, table, read),
        staging,
        purpose);
  }

  private static ReadMode comparedMode(
      Connection connection, Configuration conf, TableName table, ReadMode read) {
    if (read == ReadMode.LIVE_SCAN) {
      return read;
    }
    long min = conf.getLong(COMPARED_SNAPSHOT_MIN_BYTES, DEFAULT_COMPARED_SNAPSHOT_MIN_BYTES);
    long bytes =
        min == 0
            ? 0
            : new TableAdmin(connection)
                .regionBytes(table).values().stream().mapToLong(b -> b).sum();
    if (bytes < min) {
      LOG.info(
          "{}: read live, not through a snapshot: it holds {} bytes, under {}={}",
          table,
          bytes,
          COMPARED_SNAPSHOT_MIN_BYTES,
          min);
      return ReadMode.LIVE_SCAN;
    }
    if (GrantCheck.applies(conf)) {
      try {
        GrantCheck.require(connection, conf, Grant.snapshotRead(table, read));
      } catch (MissingGrantException e) {
        LOG.info("{}: read live, not through a snapshot: {}", table, e.getMessage());
        return ReadMode.LIVE_SCAN;
      }
    }
    return read;
  }

  /** The snapshot read, or null for a live scan. */
  public String snapshot() {
    return snapshot;
  }

  /** Where the snapshot is restored, or null for a live scan. */
  public Path restoreDir() {
    return restore;
  }

  private static void deleteRestore(Configuration conf, Path restore) {
    if (restore == null) {
      return;
    }
    try {
      restore.getFileSystem(conf).delete(restore, true);
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", restore, e.getMessage());
    }
  }

  public JavaPairRDD<ImmutableBytesWritable, Result> rows() {
    return rows;
  }

  /**
   * About {@code n} rows of one family read on the driver from the snapshot's store files, for
   * planning split points ({@link StoreFileRowSampler}); empty for a live scan, or when the files
   * cannot be read that way.
   */
  public Optional<List<Result>> sampleFromFiles(byte[] family, int n) {
    if (snapshot == null) {
      return Optional.empty();
    }
    return StoreFileRowSampler.sample(conf, restore, table, family, n);
  }

  @Override
  public void close() {
    if (snapshot == null) {
      return;
    }
    new TableAdmin(connection).deleteSnapshot(snapshot);
    deleteRestore(conf, restore);
  }
}
