package io.rekey.write;

import io.rekey.common.RekeyException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * The stored-cell check of a bulk load, as results report it: the cells of the run found in the
 * target's store files against the cells written (see {@link StoreFileCensus}). A count that
 * differs from the cells written is a duplicate or a loss, and a result says so.
 *
 * @param stored the cells found, or -1 when the store files could not be read
 * @param written the cells the run wrote
 * @param files store files of the run that were counted
 * @param note why the count could not prove the load, or null when it did
 */
public record StoredCells(long stored, long written, int files, String note) {
  /** Whether the store files hold exactly the cells written. */
  public boolean proven() {
    return note == null && stored == written;
  }

  /** {@code stored 120 = written 120 (from 8 store files)}, or what is not known. */
  public String line() {
    if (stored < 0) {
      return "written " + written + "; " + note;
    }
    return "stored "
        + stored
        + (stored == written ? " = " : " != ")
        + "written "
        + written
        + " (counted from "
        + files
        + " store files)"
        + (note == null ? "" : "; " + note);
  }

  /**
   * The proof of a load from its census: the run's cells in the target's store files, entry by
   * entry, against the ledger.
   *
   * @throws RekeyException when an entry is stored more often than once, or cells are missing and
   *     no compaction explains it
   */
  public static StoredCells prove(TableName table, Ledger ledger, StoreFileCensus.Result census) {
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
}
