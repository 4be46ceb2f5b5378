package io.rekey.write;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.run.RunFiles;
import java.io.IOException;
import java.util.ArrayList;
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
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an interrupted bulk load left, found from the target's store files ({@link StoreFileCensus})
 * and written into the ledger before the next attempt: an entry stored whole is marked loaded; an
 * entry of which HBase stored some split pieces is cut down to the rows not stored yet (a remainder
 * file, an entry of its own), so its original is never loaded again; an entry stored more than once
 * stops the run, naming the files.
 */
final class LoadReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(LoadReconciler.class);

  private LoadReconciler() {}

  /** How much of a pending entry the store files hold. */
  enum Stored {
    /** None of it: it is loaded by the next attempt. */
    NONE,
    /** All of it: loaded by an earlier attempt. */
    WHOLE,
    /** Some split pieces: the rest goes in a remainder file. */
    PART,
    /** More cells than it has: loaded more than once. */
    TWICE;

    /** How an entry of {@code cells} cells is stored when the census finds {@code stored}. */
    static Stored of(long stored, long cells) {
      if (stored == 0) {
        return NONE;
      }
      return stored == cells ? WHOLE : stored > cells ? TWICE : PART;
    }
  }

  /**
   * Marks the entries the store files hold whole as loaded, and cuts entries HBase loaded in part
   * down to what is not stored yet.
   */
  static Ledger reconcile(
      Configuration conf,
      TableName table,
      Path run,
      Ledger ledger,
      Map<String, FamilySettings> families)
      throws IOException {
    StoreFileCensus.Result census =
        StoreFileCensus.take(conf, table, families.keySet(), ledger.runId(), ledger.sinceMillis());
    return reconcile(conf, table, run, ledger, families, census);
  }

  /**
   * {@link #reconcile(Configuration, TableName, Path, Ledger, Map)} with the census taken: what the
   * ledger becomes is decided from the census and the run's own files alone.
   */
  static Ledger reconcile(
      Configuration conf,
      TableName table,
      Path run,
      Ledger ledger,
      Map<String, FamilySettings> families,
      StoreFileCensus.Result census)
      throws IOException {
    for (Ledger.Entry e : ledger.pending()) {
      String tag = HFiles.tag(ledger.runId(), e.name());
      long stored = census.cells(tag);
      switch (Stored.of(stored, e.cells())) {
        case NONE -> {
          continue;
        }
        case WHOLE -> {
          LOG.info("{} was loaded by an earlier attempt; not loading it again", e.name());
          ledger = ledger.withLoaded(List.of(e));
        }
        case TWICE -> {
          ledger.write(conf, run);
          StoredCells.prove(table, ledger, census); // throws, naming the files
        }
        case PART ->
            ledger =
                remainder(
                    conf,
                    table,
                    run,
                    ledger,
                    e,
                    census.pieces().get(tag),
                    families.get(e.family()));
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
}
