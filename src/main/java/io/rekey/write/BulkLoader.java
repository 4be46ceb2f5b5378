package io.rekey.hbase;

import io.rekey.RekeyException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.tool.BulkLoadHFilesTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a directory of HFiles ({@code dir/<family>/<files>}) into a table with HBase's
 * BulkLoadHFiles, which splits files whose key range now spans a region boundary (the target may
 * have split since the plan) and retries regions that moved. Files are moved into HBase, so a file
 * is never loaded twice.
 */
public final class BulkLoader {
  private static final Logger LOG = LoggerFactory.getLogger(BulkLoader.class);

  /** How many times to try a bulk load before giving up (the files stay for a rerun). */
  public static final String ATTEMPTS_KEY = "rekey.bulkload.attempts";

  private static final int DEFAULT_ATTEMPTS = 4;

  /** HBase's setting for how many regions are loaded at once. */
  static final String LOAD_THREADS_KEY = "hbase.loadincremental.threads.max";

  private static final int DEFAULT_LOAD_THREADS = 16;

  private static final long RETRY_WAIT_MS = 3_000;

  private BulkLoader() {}

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RekeyException("interrupted while waiting to retry the bulk load", e);
    }
  }

  /**
   * @param connection the job's connection: the load asks through it where the regions are, instead
   *     of opening one of its own (a ZooKeeper session and the region lookups again)
   * @param maxFilesPerRegionPerFamily raised from HBase's default of 32 when the writer made more
   */
  public static void load(
      Connection connection,
      Configuration conf,
      TableName table,
      Path dir,
      int maxFilesPerRegionPerFamily) {
    Configuration c = new Configuration(conf);
    c.setInt(
        "hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily",
        Math.max(32, maxFilesPerRegionPerFamily));
    c.setInt("hbase.bulkload.retries.number", c.getInt("hbase.bulkload.retries.number", 10));
    // HBase's default is the client's core count, 2 on a small driver, and a region server spends
    // much of each region's load waiting on its filesystem; a user's own setting wins.
    c.setInt(LOAD_THREADS_KEY, c.getInt(LOAD_THREADS_KEY, DEFAULT_LOAD_THREADS));
    int attempts = Math.max(1, c.getInt(ATTEMPTS_KEY, DEFAULT_ATTEMPTS));
    IOException last = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        LOG.info(
            "rekey: bulk loading {} into {} (attempt {} of {})", dir, table, attempt, attempts);
        try (Admin admin = connection.getAdmin();
            Table t = connection.getTable(table);
            RegionLocator regions = connection.getRegionLocator(table)) {
          // What BulkLoadHFiles.bulkLoad(table, dir) does after opening its own connection.
          new BulkLoadHFilesTool(c).doBulkLoad(dir, admin, t, regions, false, false);
        }
        return;
      } catch (IOException e) {
        // A table whose regions are moving (a split, a balancer run) is briefly "not available";
        // files already loaded were moved out of dir, so trying again loads only the rest.
        last = e;
        LOG.warn("rekey: bulk load attempt {} failed: {}", attempt, e.getMessage());
        if (attempt < attempts) {
          sleep(RETRY_WAIT_MS * attempt);
        }
      }
    }
    throw new RekeyException(
        "the bulk load of "
            + dir
            + " into "
            + table
            + " failed "
            + attempts
            + " time(s): "
            + last.getMessage()
            + "; the HFiles that were not loaded are still in "
            + dir
            + ", rerun the same command to load them",
        last);
  }
}
