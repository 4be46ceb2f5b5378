package io.rekey.write;

import io.rekey.common.RekeyException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cells a run stored in a table, counted from the table's store files themselves: the entry
 * count in each HFile's trailer, grouped by the ledger entry the file is tagged with ({@link
 * HFiles#ENTRY_KEY}). A scan cannot do this (it returns one cell for two identical ones); this sees
 * a file loaded twice as twice the cells.
 *
 * <p>Files a compaction has replaced are in the archive ({@code hbase.rootdir/archive/...}) for at
 * least the cleaner's TTL (five minutes by default), so both the store and the archive are read and
 * a file is counted once by its region, family and name. HBase requests a compaction after every
 * bulk load ({@code hbase.compaction.after.bulkload.enable}); a compacted file carries no tag, so
 * without the archive its cells would look lost.
 *
 * <p>The one place that reads HBase's on-disk layout and HFile trailers, which have no public API:
 * the table directory {@code hbase.rootdir/data/NS/TABLE/REGION/FAMILY/FILE} and {@link HFile}
 * (limited-private). Reference files (halves of a split parent) are skipped: the parent's file
 * itself is still in the parent region's directory, or in the archive.
 */
public final class StoreFileCensus {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFileCensus.class);
  private static final int ATTEMPTS = 3;

  /**
   * One tagged store file.
   *
   * @param file where it was found
   */
  public record Piece(String tag, long cells, byte[] firstRow, byte[] lastRow, String file) {}

  /**
   * What the census found.
   *
   * @param pieces this run's store files by tag
   * @param filesRead store files opened (recent enough to be the run's)
   * @param otherCells cells in recent store files without this run's tag (compaction outputs, other
   *     writers)
   */
  public record Result(Map<String, List<Piece>> pieces, int filesRead, long otherCells) {
    /** Cells stored for one tag. */
    public long cells(String tag) {
      return pieces.getOrDefault(tag, List.of()).stream().mapToLong(Piece::cells).sum();
    }

    /** Cells stored for every tag. */
    public long cells() {
      return pieces.values().stream().flatMap(List::stream).mapToLong(Piece::cells).sum();
    }
  }

  private StoreFileCensus() {}

  /**
   * Reads the store files of {@code families} of {@code table} modified at or after {@code
   * sinceMillis}, and sums the entries of those tagged with {@code runId}.
   */
  public static Result take(
      Configuration conf,
      TableName table,
      Collection<String> families,
      String runId,
      long sinceMillis) {
    String root = conf.get(HConstants.HBASE_DIR);
    if (root == null) {
      throw new RekeyException(
          "cannot count the cells stored in "
              + table
              + ": hbase.rootdir is not set; pass --hbase-conf with the cluster's hbase-site.xml");
    }
    Path rootDir = new Path(root);
    Path tableDir = tableDir(rootDir, table);
    Path archiveDir =
        new Path(
            new Path(
                new Path(new Path(rootDir, HConstants.HFILE_ARCHIVE_DIRECTORY), "data"),
                table.getNamespaceAsString()),
            table.getQualifierAsString());
    for (int attempt = 1; ; attempt++) {
      try {
        FileSystem fs = tableDir.getFileSystem(conf);
        if (!fs.exists(tableDir)) {
          throw new RekeyException(
              "cannot count the cells stored in "
                  + table
                  + ": "
                  + tableDir
                  + " does not exist; is hbase.rootdir ("
                  + root
                  + ") the cluster's? Pass --hbase-conf with its hbase-site.xml");
        }
        // The store first, then the archive: a file archived in between is then seen twice and
        // counted once, never missed.
        Map<String, FileStatus> files = new LinkedHashMap<>();
        list(fs, tableDir, families, sinceMillis, files);
        if (fs.exists(archiveDir)) {
          list(fs, archiveDir, families, sinceMillis, files);
        }
        Map<String, List<Piece>> pieces = new HashMap<>();
        long other = 0;
        String prefix = runId + "/";
        for (FileStatus f : files.values()) {
          try (HFile.Reader reader =
              HFile.createReader(fs, f.getPath(), CacheConfig.DISABLED, true, conf)) {
            byte[] tag = reader.getHFileInfo().get(HFiles.ENTRY_KEY);
            String t = tag == null ? null : Bytes.toString(tag);
            if (t == null || !t.startsWith(prefix)) {
              other += reader.getEntries();
              continue;
            }
            pieces
                .computeIfAbsent(t, k -> new ArrayList<>())
                .add(
                    new Piece(
                        t,
                        reader.getEntries(),
                        reader.getFirstRowKey().orElse(new byte[0]),
                        reader.getLastRowKey().orElse(new byte[0]),
                        f.getPath().toString()));
          }
        }
        return new Result(pieces, files.size(), other);
      } catch (FileNotFoundException e) {
        // A compaction or the archive cleaner moved a file between the listing and the read.
        if (attempt >= ATTEMPTS) {
          throw new RekeyException(
              "cannot count the cells stored in "
                  + table
                  + ": its store files kept moving ("
                  + e.getMessage()
                  + "); run again when its compactions are done",
              e);
        }
        LOG.info(
            "store file census of {}: a file moved ({}); counting again", table, e.getMessage());
      } catch (IOException e) {
        throw new RekeyException(
            "cannot count the cells stored in "
                + table
                + " from its store files under "
                + tableDir
                + ": "
                + e.getMessage()
                + "; the check needs read access to hbase.rootdir",
            e);
      }
    }
  }

  /**
   * How many store files each store of {@code table} holds now, by encoded region name and family,
   * from the stores' directories (references and links included: HBase counts them too). A file a
   * compaction replaced stays in its store's directory until HBase's discharger removes it (every
   * two minutes by default), so a count can run high for that long, never low.
   */
  public static Map<String, Map<String, Integer>> storeFileCounts(
      Configuration conf, TableName table) throws IOException {
    String root = conf.get(HConstants.HBASE_DIR);
    if (root == null) {
      throw new IOException("hbase.rootdir is not set");
    }
    Path tableDir = tableDir(new Path(root), table);
    FileSystem fs = tableDir.getFileSystem(conf);
    Map<String, Map<String, Integer>> out = new HashMap<>();
    for (FileStatus region : fs.listStatus(tableDir)) {
      String regionName = region.getPath().getName();
      if (!region.isDirectory() || regionName.startsWith(".")) {
        continue;
      }
      Map<String, Integer> stores = new HashMap<>();
      for (FileStatus family : fs.listStatus(region.getPath())) {
        String name = family.getPath().getName();
        if (!family.isDirectory() || name.startsWith(".") || name.equals("recovered.edits")) {
          continue;
        }
        int files = 0;
        for (FileStatus f : fs.listStatus(family.getPath())) {
          files += f.isDirectory() ? 0 : 1;
        }
        stores.put(name, files);
      }
      out.put(regionName, stores);
    }
    return out;
  }

  /** Where HBase keeps {@code table}'s regions: {@code hbase.rootdir/data/NS/TABLE}. */
  private static Path tableDir(Path rootDir, TableName table) {
    return new Path(
        new Path(new Path(rootDir, HConstants.BASE_NAMESPACE_DIR), table.getNamespaceAsString()),
        table.getQualifierAsString());
  }

  private static void list(
      FileSystem fs,
      Path tableDir,
      Collection<String> families,
      long sinceMillis,
      Map<String, FileStatus> out)
      throws IOException {
    for (FileStatus region : fs.listStatus(tableDir)) {
      String regionName = region.getPath().getName();
      if (!region.isDirectory() || regionName.startsWith(".")) {
        continue;
      }
      for (String family : families) {
        Path familyDir = new Path(region.getPath(), family);
        FileStatus[] stored;
        try {
          stored = fs.listStatus(familyDir);
        } catch (FileNotFoundException e) {
          continue;
        }
        for (FileStatus f : stored) {
          String name = f.getPath().getName();
          // References ('file.parentregion') and links ('table=region-file') are not files of
          // their own; their cells are counted where the file itself is.
          if (f.isDirectory()
              || name.contains(".")
              || name.contains("=")
              || f.getModificationTime() < sinceMillis) {
            continue;
          }
          out.putIfAbsent(regionName + "/" + family + "/" + name, f);
        }
      }
    }
  }
}
