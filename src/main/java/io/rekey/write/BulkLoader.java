package io.rekey.write;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.run.RunFiles;
import io.rekey.spark.Faults;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a run's committed HFiles into a table through HBase's public {@link BulkLoadHFiles}, in
 * batches that respect the regions' store-file limits and the throttle ({@link PacedLoad}), which
 * splits a file whose rows now span a region boundary (the target split since the plan) and retries
 * regions that moved, and keeps the loaded-once {@link Ledger}:
 *
 * <ul>
 *   <li>only entries not yet loaded are handed to a load, by path, never by listing a directory;
 *   <li>after an interrupted load (an exception, a killed driver) the target's store files say what
 *       was loaded ({@link StoreFileCensus}): an entry stored whole is marked loaded; an entry of
 *       which HBase loaded some split pieces is cut down to the rows not stored yet (a remainder
 *       file, tagged as an entry of its own), so its original is never loaded again;
 *   <li>after the load, the cells stored for the run are counted from the store files and must
 *       equal the cells written: a file loaded twice shows as cells stored twice.
 * </ul>
 *
 * The reconciliation after an interrupted load is {@link LoadReconciler}'s, the proof from the
 * store files {@link StoredCells#prove}'s.
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

  /**
   * What a load did: the final ledger, the stored-cell check and how the load was paced.
   *
   * @param batches bulk-load calls made (one unless a throttle or full regions split the load)
   * @param storeFileWaits times the load waited for compactions to make room in a region
   * @param storeFileWaitMillis time spent waiting for them
   */
  public record Loaded(
      Ledger ledger,
      StoredCells stored,
      int batches,
      int storeFileWaits,
      long storeFileWaitMillis) {
    Loaded(Ledger ledger, StoredCells stored, PacedLoad.Pacing pacing) {
      this(ledger, stored, pacing.batches(), pacing.storeFileWaits(), pacing.storeFileWaitMillis());
    }
  }

  /**
   * Loads every entry of {@code ledger} not yet loaded, then counts the run's stored cells.
   *
   * @param cellsWritten the cells the writers reported, which the ledger must hold
   * @param families the target's families, to write a remainder file as the writers would
   * @param maxFilesPerRegionPerFamily raised from HBase's default of 32 when the writer made more
   * @throws RekeyException when the load fails every attempt (the ledger says what is loaded, and a
   *     rerun loads the rest) or the store files do not hold the cells written
   */
  public static Loaded load(
      Configuration conf,
      Faults faults,
      TableName table,
      Path run,
      Ledger ledger,
      long cellsWritten,
      List<FamilySettings> families,
      int maxFilesPerRegionPerFamily) {
    Configuration c = new Configuration(conf);
    c.setInt(
        BulkLoadHFiles.MAX_FILES_PER_REGION_PER_FAMILY, Math.max(32, maxFilesPerRegionPerFamily));
    c.setInt("hbase.bulkload.retries.number", c.getInt("hbase.bulkload.retries.number", 10));
    // HBase's default is the client's core count, 2 on a small driver, and a region server spends
    // much of each region's load waiting on its filesystem; a user's own setting wins.
    c.setInt(LOAD_THREADS_KEY, c.getInt(LOAD_THREADS_KEY, DEFAULT_LOAD_THREADS));
    int attempts = Math.max(1, c.getInt(ATTEMPTS_KEY, DEFAULT_ATTEMPTS));
    Map<String, FamilySettings> settings = new HashMap<>();
    for (FamilySettings f : families) {
      settings.put(f.name(), f);
    }
    Path hfiles = RunFiles.hfiles(run);
    PacedLoad.Pacing pacing = PacedLoad.Pacing.NONE;
    Exception last = null;
    try {
      for (int attempt = 1; attempt <= attempts; attempt++) {
        if (ledger.loadAttempts() > 0) {
          ledger = LoadReconciler.reconcile(c, table, run, ledger, settings);
        }
        List<Ledger.Entry> pending = ledger.pending();
        if (pending.isEmpty()) {
          break;
        }
        HFileCommit.check(c, run, ledger, cellsWritten);
        ledger = ledger.withLoadAttempt();
        ledger.write(c, run);
        LOG.info(
            "bulk loading {} of {} HFiles from {} into {} (attempt {} of {})",
            pending.size(),
            ledger.entries().size(),
            hfiles,
            table,
            attempt,
            attempts);
        PacedLoad paced = new PacedLoad(c, table, run, ledger);
        try {
          faults.inject(Faults.Point.BEFORE_LOAD, -1, attempt);
          ledger = paced.load(pending);
          pacing = pacing.plus(paced.pacing());
          last = null;
          break;
        } catch (PacedLoad.StoreFilesFull e) {
          throw e; // waiting again at once would not help; the message says what will
        } catch (IOException | RuntimeException e) {
          ledger = paced.ledger();
          pacing = pacing.plus(paced.pacing());
          // A table whose regions are moving (a split, a balancer run, a restarting server) is
          // briefly "not available". What this attempt loaded, the next one finds in the store.
          last = e;
          LOG.warn("bulk load attempt {} into {} failed: {}", attempt, table, e.getMessage());
          if (attempt < attempts) {
            sleep(RETRY_WAIT_MS * attempt);
          }
        }
      }
      if (last != null) {
        // One more look: the last attempt may have loaded everything before it failed.
        ledger = LoadReconciler.reconcile(c, table, run, ledger, settings);
        if (!ledger.pending().isEmpty()) {
          throw new RekeyException(
              "the bulk load into "
                  + table
                  + " failed "
                  + attempts
                  + " time(s): "
                  + last.getMessage()
                  + "; "
                  + ledger.pending().size()
                  + " of "
                  + ledger.entries().size()
                  + " HFiles are not loaded yet (the ledger "
                  + Ledger.file(run)
                  + " knows which): rerun the same command to load only those",
              last);
        }
      }
      return new Loaded(ledger, storedCells(c, table, ledger, settings.keySet()), pacing);
    } catch (IOException e) {
      throw new RekeyException("cannot record the load in " + run + ": " + e.getMessage(), e);
    }
  }

  /** The run's cells in the target's store files, entry by entry, against the ledger. */
  public static StoredCells storedCells(
      Configuration conf, TableName table, Ledger ledger, java.util.Set<String> families) {
    StoreFileCensus.Result census;
    try {
      census = StoreFileCensus.take(conf, table, families, ledger.runId(), ledger.sinceMillis());
    } catch (RekeyException e) {
      if (!(e.getCause() instanceof org.apache.hadoop.security.AccessControlException)) {
        throw e;
      }
      // The load is done; only the count cannot be made. Say so instead of failing the run.
      return new StoredCells(
          -1,
          ledger.cells(),
          0,
          "not counted: this user cannot read the store files under hbase.rootdir ("
              + e.getCause().getMessage()
              + "); verify compares the cells");
    }
    return StoredCells.prove(table, ledger, census);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RekeyException("interrupted while waiting to retry the bulk load", e);
    }
  }
}
