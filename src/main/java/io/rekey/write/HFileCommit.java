package io.rekey.write;

import io.rekey.common.RekeyException;
import io.rekey.run.RunFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of the commit protocol. Spark returns exactly one result per partition of the
 * writer stage, from the one attempt it accepted (a failed attempt returns nothing; of a task and
 * its speculative copy the first to finish wins and the other is killed). The driver moves exactly
 * the files listed in those results from their attempts' directories into the load directory,
 * records them in the ledger, and deletes the attempt directories with whatever the other attempts
 * left. Before anything is loaded, {@link #check} proves the load directory holds the ledger's
 * files, with their sizes, and nothing else.
 */
public final class HFileCommit {
  private static final Logger LOG = LoggerFactory.getLogger(HFileCommit.class);

  private HFileCommit() {}

  /**
   * Commits the accepted attempts' files of run directory {@code run}.
   *
   * @param accepted the writer stage's results, one per partition
   * @return the ledger, written to the run directory
   */
  public static Ledger commit(
      Configuration conf, Path run, String runId, List<WriteStats> accepted) {
    Path hfiles = RunFiles.hfiles(run);
    try {
      FileSystem fs = run.getFileSystem(conf);
      List<Ledger.Entry> entries = new ArrayList<>();
      long since = Long.MAX_VALUE;
      for (WriteStats task : accepted) {
        for (WrittenFile f : task.files()) {
          Path to = new Path(hfiles, f.name());
          if (fs.exists(to)) {
            throw new RekeyException(
                "cannot commit "
                    + f.path()
                    + ": "
                    + to
                    + " exists already, so two partitions wrote one file name. This is a bug;"
                    + " nothing was loaded, the run's files are in "
                    + run);
          }
          fs.mkdirs(to.getParent());
          if (!fs.rename(new Path(f.path()), to)) {
            throw new IOException("cannot move " + f.path() + " to " + to);
          }
          since = Math.min(since, fs.getFileStatus(to).getModificationTime());
          entries.add(Ledger.Entry.of(f));
        }
      }
      Ledger ledger = new Ledger(runId, since == Long.MAX_VALUE ? 0 : since, 0, entries);
      ledger.write(conf, run);
      // Every attempt's directory: the committed files are out of it, the rest is other attempts'.
      fs.delete(RunFiles.tmp(run), true);
      LOG.info(
          "committed {} HFiles of {} partitions into {}", entries.size(), accepted.size(), hfiles);
      return ledger;
    } catch (IOException e) {
      throw new RekeyException(
          "cannot commit the written HFiles into " + hfiles + ": " + e.getMessage(), e);
    }
  }

  /**
   * Checks the load directory against the ledger before a load: every entry not yet loaded is there
   * with its size, and nothing is there that the ledger does not name. HBase's split halves of an
   * earlier attempt ({@code FAMILY/.tmp}) are never loaded: they are removed here.
   *
   * @param cellsWritten what the writers reported; the ledger's cells must add up to it
   * @throws RekeyException naming the first file that differs; nothing was loaded then
   */
  public static void check(Configuration conf, Path run, Ledger ledger, long cellsWritten) {
    if (ledger.cells() != cellsWritten) {
      throw new RekeyException(
          "the ledger "
              + Ledger.file(run)
              + " holds "
              + ledger.cells()
              + " cells but "
              + cellsWritten
              + " were written; nothing more was loaded. Delete "
              + run
              + " and run again");
    }
    Path hfiles = RunFiles.hfiles(run);
    try {
      FileSystem fs = hfiles.getFileSystem(conf);
      Map<String, Long> present = new HashMap<>();
      if (fs.exists(hfiles)) {
        for (FileStatus family : fs.listStatus(hfiles)) {
          if (!family.isDirectory()) {
            present.put(family.getPath().getName(), family.getLen());
            continue;
          }
          for (FileStatus f : fs.listStatus(family.getPath())) {
            String name = family.getPath().getName() + "/" + f.getPath().getName();
            if (f.isDirectory()) {
              fs.delete(f.getPath(), true);
              continue;
            }
            present.put(name, f.getLen());
          }
        }
      }
      for (Ledger.Entry e : ledger.entries()) {
        Long size = present.remove(e.name());
        if (e.isLoaded()) {
          continue; // loaded by a copy (another filesystem): the original may stay
        }
        if (size == null) {
          throw new RekeyException(
              "the load directory "
                  + hfiles
                  + " lacks "
                  + e.name()
                  + " ("
                  + e.cells()
                  + " cells), which the ledger has not seen loaded; nothing more was loaded."
                  + " Delete "
                  + run
                  + " and run again");
        }
        if (size != e.bytes()) {
          throw new RekeyException(
              "the load directory's "
                  + e.name()
                  + " has "
                  + size
                  + " bytes but was committed with "
                  + e.bytes()
                  + "; nothing more was loaded. Delete "
                  + run
                  + " and run again");
        }
      }
      if (!present.isEmpty()) {
        throw new RekeyException(
            "the load directory "
                + hfiles
                + " holds files this run did not commit: "
                + new TreeSet<>(present.keySet())
                + "; nothing more was loaded. Remove them (or delete "
                + run
                + ") and run again");
      }
    } catch (IOException e) {
      throw new RekeyException(
          "cannot list the load directory " + hfiles + ": " + e.getMessage(), e);
    }
  }
}
