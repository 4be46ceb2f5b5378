package io.rekey.write;

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
}
