package io.rekey.write;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.RunFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
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
 * <p>One class of about 480 lines because the load, its bounded retries and the stored-cell count
 * after it share the ledger and the target's regions: the census is what proves the load.
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
          ledger = reconcile(c, table, run, ledger, settings);
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
          FaultHook.at(FaultHook.Point.BEFORE_LOAD, -1, attempt);
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
        ledger = reconcile(c, table, run, ledger, settings);
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
    long stored = census.cells();
    long written = ledger.cells();
    int files = census.pieces().values().stream().mapToInt(List::size).sum();
    for (Ledger.Entry e : ledger.entries()) {
      long cells = census.cells(HFiles.tag(ledger.runId(), e.name()));
      if (cells > e.cells()) {
        throw new RekeyException(
            table
                + " stores "
                + cells
                + " cells of "
                + e.name()
                + ", which holds "
                + e.cells()
                + ": it was loaded more than once (store files "
                + census.pieces().get(HFiles.tag(ledger.runId(), e.name())).stream()
                    .map(StoreFileCensus.Piece::file)
                    .toList()
                + "). StoredCells "
                + stored
                + ", written "
                + written
                + ". Identical cells merge at the next major compaction; report this as a bug");
      }
    }
    if (stored == written) {
      return new StoredCells(stored, written, files, null);
    }
    if (census.otherCells() > 0) {
      // Compactions replaced some of the run's files and the cleaner removed the originals.
      return new StoredCells(
          stored,
          written,
          files,
          "not proven: compactions replaced some of this run's store files ("
              + census.otherCells()
              + " cells in recent files without the run's tag); verify compares the cells");
    }
    throw new RekeyException(
        table
            + " stores "
            + stored
            + " of the "
            + written
            + " cells this run wrote and loaded, counted from its store files; rerun the same"
            + " command, and if the count stays short, report this as a bug");
  }

  /**
   * Marks the entries the store files hold whole as loaded, and cuts entries HBase loaded in part
   * down to what is not stored yet.
   */
  private static Ledger reconcile(
      Configuration conf,
      TableName table,
      Path run,
      Ledger ledger,
      Map<String, FamilySettings> families)
      throws IOException {
    StoreFileCensus.Result census =
        StoreFileCensus.take(conf, table, families.keySet(), ledger.runId(), ledger.sinceMillis());
    for (Ledger.Entry e : ledger.pending()) {
      String tag = HFiles.tag(ledger.runId(), e.name());
      long stored = census.cells(tag);
      if (stored == 0) {
        continue;
      }
      if (stored == e.cells()) {
        LOG.info("{} was loaded by an earlier attempt; not loading it again", e.name());
        ledger = ledger.withLoaded(List.of(e));
      } else if (stored > e.cells()) {
        ledger.write(conf, run);
        storedCells(conf, table, ledger, families.keySet()); // throws, naming the files
      } else {
        ledger =
            remainder(
                conf, table, run, ledger, e, census.pieces().get(tag), families.get(e.family()));
      }
      ledger.write(conf, run);
    }
    return ledger;
  }

  /**
   * Replaces entry {@code e}, of which HBase stored the rows of {@code pieces}, by two: {@code e}
   * itself with the cells stored (loaded), and a new file of its other rows (not loaded). Those
   * rows are read from the entry's file when it is still there, else from the halves HBase split it
   * into ({@code FAMILY/.tmp/*}, tagged like the entry; HBase 2.5 deletes a file once it has split
   * it): sorted runs merged, a cell the halves share kept once.
   */
  private static Ledger remainder(
      Configuration conf,
      TableName table,
      Path run,
      Ledger ledger,
      Ledger.Entry e,
      List<StoreFileCensus.Piece> pieces,
      FamilySettings family)
      throws IOException {
    Path hfiles = RunFiles.hfiles(run);
    Path original = new Path(hfiles, e.name());
    FileSystem fs = original.getFileSystem(conf);
    String tag = HFiles.tag(ledger.runId(), e.name());
    List<Path> sources = new ArrayList<>();
    if (fs.exists(original)) {
      sources.add(original);
    } else {
      Path splits = new Path(new Path(hfiles, e.family()), ".tmp");
      if (fs.exists(splits)) {
        for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(splits)) {
          if (f.isFile() && tag.equals(tagOf(conf, fs, f.getPath()))) {
            sources.add(f.getPath());
          }
        }
      }
    }
    long storedCells = pieces.stream().mapToLong(StoreFileCensus.Piece::cells).sum();
    if (sources.isEmpty()) {
      throw new RekeyException(
          "HBase stored "
              + storedCells
              + " of the "
              + e.cells()
              + " cells of "
              + e.name()
              + " before the load was interrupted, and neither the file nor the halves HBase split"
              + " it into are left in "
              + hfiles
              + "; the rest cannot be loaded exactly. Delete "
              + run
              + " and the target's rows, and run again");
    }
    String name = e.name() + "r" + ledger.loadAttempts();
    Path rest = new Path(hfiles, name);
    long cells = 0;
    byte[] first = null;
    byte[] lastRow = null;
    List<HFile.Reader> readers = new ArrayList<>();
    StoreFileWriter writer = HFiles.open(conf, fs, rest, family, table.getNameAsString());
    try {
      java.util.PriorityQueue<HFileScanner> merge =
          new java.util.PriorityQueue<>(
              (a, b) -> CellComparator.getInstance().compare(a.getCell(), b.getCell()));
      for (Path source : sources) {
        HFile.Reader reader = HFile.createReader(fs, source, CacheConfig.DISABLED, true, conf);
        readers.add(reader);
        HFileScanner scanner = reader.getScanner(conf, false, false);
        if (scanner.seekTo()) {
          merge.add(scanner);
        }
      }
      Cell previous = null;
      while (!merge.isEmpty()) {
        HFileScanner scanner = merge.poll();
        Cell cell = KeyValueUtil.copyToNewKeyValue(scanner.getCell());
        if (scanner.next()) {
          merge.add(scanner);
        }
        if (previous != null && CellComparator.getInstance().compare(previous, cell) == 0) {
          continue; // the same cell in two halves of one split
        }
        previous = cell;
        if (!within(cell, pieces)) {
          writer.append(cell);
          lastRow = CellUtil.cloneRow(cell);
          if (first == null) {
            first = lastRow;
          }
          cells++;
        }
      }
    } finally {
      for (HFile.Reader r : readers) {
        r.close();
      }
      HFiles.close(writer, HFiles.tag(ledger.runId(), name));
    }
    if (cells + storedCells != e.cells()) {
      fs.delete(rest, false);
      throw new RekeyException(
          e.name()
              + " holds "
              + e.cells()
              + " cells; HBase stored "
              + storedCells
              + " of them and "
              + cells
              + " are left to load, so the entry cannot be completed exactly; nothing more was"
              + " loaded. Delete "
              + run
              + " and the target's rows, and run again");
    }
    LOG.info(
        "{}: HBase loaded {} of its {} cells before the load was interrupted; the other {} go in"
            + " {}",
        e.name(),
        storedCells,
        e.cells(),
        cells,
        name);
    Ledger.Entry done =
        new Ledger.Entry(
            e.name(),
            e.family(),
            e.bytes(),
            storedCells,
            e.firstRow(),
            e.lastRow(),
            Ledger.State.LOADED,
            "split by HBase and loaded in part; the rest is " + name);
    Ledger.Entry remaining =
        new Ledger.Entry(
            name,
            e.family(),
            fs.getFileStatus(rest).getLen(),
            cells,
            first == null ? "" : java.util.HexFormat.of().formatHex(first),
            lastRow == null ? "" : java.util.HexFormat.of().formatHex(lastRow),
            cells == 0 ? Ledger.State.LOADED : Ledger.State.COMMITTED,
            "the rows of " + e.name() + " that an interrupted load did not store");
    Ledger next = ledger.replacing(e, List.of(done, remaining));
    next.write(conf, run);
    for (Path source : sources) {
      fs.delete(source, false);
    }
    return next;
  }

  private static String tagOf(Configuration conf, FileSystem fs, Path file) throws IOException {
    try (HFile.Reader reader = HFile.createReader(fs, file, CacheConfig.DISABLED, true, conf)) {
      byte[] tag = reader.getHFileInfo().get(HFiles.ENTRY_KEY);
      return tag == null ? null : Bytes.toString(tag);
    }
  }

  private static boolean within(Cell cell, List<StoreFileCensus.Piece> pieces) {
    for (StoreFileCensus.Piece p : pieces) {
      if (Bytes.compareTo(
                  cell.getRowArray(),
                  cell.getRowOffset(),
                  cell.getRowLength(),
                  p.firstRow(),
                  0,
                  p.firstRow().length)
              >= 0
          && Bytes.compareTo(
                  cell.getRowArray(),
                  cell.getRowOffset(),
                  cell.getRowLength(),
                  p.lastRow(),
                  0,
                  p.lastRow().length)
              <= 0) {
        return true;
      }
    }
    return false;
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
