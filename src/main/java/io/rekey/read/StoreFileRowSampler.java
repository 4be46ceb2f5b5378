package io.rekey.read;

import io.rekey.read.StoreFileIndex.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sample of the rows of a restored snapshot, read on the driver straight from one family's store
 * files, for planning split points without a pass over the data. Each file gets sample positions in
 * proportion to its bytes, at evenly spaced entries of its root block index (each covering about
 * the same share of the file), and from each position the next few rows are read: a few blocks per
 * position, not the table.
 *
 * <p>The rows are what one file holds of them: the family's cells in that file, including versions
 * a newer file may hide; delete markers are left out. That is close enough for split points, which
 * only need the rough shape of the key distribution, and is not for anything that must be exact.
 */
public final class StoreFileRowSampler {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFileRowSampler.class);

  /** Consecutive rows read from each position: about one data block of small rows. */
  static final int ROWS_PER_POSITION = 100;

  private StoreFileRowSampler() {}

  /**
   * About {@code rows} rows of {@code table}'s family {@code family}, from the snapshot restored
   * under {@code restoreDir} (as TableSnapshotInputFormat restores it: one directory per restore,
   * then the table's layout); every row when the family holds fewer.
   *
   * @return empty when the files cannot be read this way (reference files of a region split since
   *     the last compaction, an unreadable file): the caller samples another way
   */
  public static Optional<List<Result>> sample(
      Configuration conf, Path restoreDir, TableName table, byte[] family, int rows) {
    try {
      FileSystem fs = restoreDir.getFileSystem(conf);
      Path pattern =
          new Path(
              restoreDir,
              "*/data/"
                  + table.getNamespaceAsString()
                  + "/"
                  + table.getQualifierAsString()
                  + "/*/"
                  + Bytes.toString(family)
                  + "/*");
      FileStatus[] found = fs.globStatus(pattern);
      List<FileStatus> files = new ArrayList<>();
      long total = 0;
      for (FileStatus f : found == null ? new FileStatus[0] : found) {
        if (f.isDirectory() || f.getPath().getName().startsWith(".")) {
          continue;
        }
        StoreFileInfo info = new StoreFileInfo(conf, fs, f);
        if (info.isReference()) {
          LOG.info("{} holds reference files (a region split): sampling it another way", table);
          return Optional.empty();
        }
        FileStatus real = info.getReferencedFileStatus(fs);
        files.add(real);
        total += real.getLen();
      }
      int positions = Math.max(1, (rows + ROWS_PER_POSITION - 1) / ROWS_PER_POSITION);
      List<Result> out = new ArrayList<>();
      for (FileStatus file : files) {
        // Every file gets its share of the positions, at least one: a small recent file is read
        // a little rather than not at all.
        int share = (int) Math.max(1, Math.round((double) positions * file.getLen() / total));
        out.addAll(sampleFile(conf, fs, file.getPath(), share));
      }
      return Optional.of(out);
    } catch (IOException | RuntimeException e) {
      LOG.info(
          "cannot sample the store files of {} under {} ({}): sampling it another way",
          table,
          restoreDir,
          e.toString());
      return Optional.empty();
    }
  }

  /** The rows read at {@code positions} places spread evenly over one store file. */
  static List<Result> sampleFile(Configuration conf, FileSystem fs, Path path, int positions)
      throws IOException {
    List<Result> out = new ArrayList<>();
    HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
    try (HFileScanner scanner = reader.getScanner(conf, false, true)) {
      BlockKeys index = new BlockKeys(reader, fs.getFileStatus(path).getLen());
      long blocks = index.approximateDataBlocks();
      if (blocks == 0) {
        return out;
      }
      int at = (int) Math.min(positions, blocks);
      // Fewer data blocks than positions (a small file): more rows from each.
      int rowsEach = (int) Math.ceil((double) ROWS_PER_POSITION * positions / at);
      // Each position starts at a row near its block: the row of the cell a seek to the block's
      // key lands on. Rows are then read whole from that row's first cell, up to the next
      // position's row, so no row is read in part or twice.
      List<byte[]> starts = new ArrayList<>();
      for (int p = 0; p < at; p++) {
        byte[] row = rowNear(scanner, index.keyAt((p + 0.5) / at));
        if (row != null && (starts.isEmpty() || Bytes.compareTo(row, last(starts)) > 0)) {
          starts.add(row);
        }
      }
      for (int p = 0; p < starts.size(); p++) {
        if (seekToRow(scanner, starts.get(p))) {
          readRows(scanner, p + 1 < starts.size() ? starts.get(p + 1) : null, rowsEach, out);
        }
      }
    } finally {
      reader.close();
    }
    return out;
  }

  private static byte[] last(List<byte[]> rows) {
    return rows.get(rows.size() - 1);
  }

  /** The row of the cell a seek to {@code key} lands on; null past the file's last cell. */
  private static byte[] rowNear(HFileScanner scanner, Cell key) throws IOException {
    // -1: before the file's first key. A block's index key may be shorter than its first key
    // (HBase stores a key between two blocks); the seek then stops at the block's first cell or
    // at the cell before it.
    if (scanner.seekTo(key) == -1 && !scanner.seekTo()) {
      return null;
    }
    Cell at = scanner.getCell();
    return at == null ? null : CellUtil.cloneRow(at);
  }

  /** Positions the scanner at the first cell of {@code row}; false when the file has none. */
  private static boolean seekToRow(HFileScanner scanner, byte[] row) throws IOException {
    int found = scanner.seekTo(PrivateCellUtil.createFirstOnRow(row));
    if (found == -1) {
      // Before the file's first cell: the row is the file's first.
      return scanner.seekTo();
    }
    // 1: at the cell before the row; 0 or HBase's index-key marker (-2): at the row's first cell.
    return found != 1 || scanner.next();
  }

  /**
   * Reads up to {@code rows} rows from the scanner's position (a row's first cell), their Puts
   * copied, ending before the row {@code stop} when it is not null.
   */
  private static void readRows(HFileScanner scanner, byte[] stop, int rows, List<Result> out)
      throws IOException {
    Cell rowStart = null;
    List<Cell> row = new ArrayList<>();
    int taken = 0;
    do {
      // A copy: the scanner's cells point into a block it may reuse.
      Cell cell = KeyValueUtil.copyToNewKeyValue(scanner.getCell());
      if (rowStart == null || !CellUtil.matchingRows(rowStart, cell)) {
        if (!row.isEmpty()) {
          out.add(Result.create(row));
          row = new ArrayList<>();
          if (++taken == rows) {
            return;
          }
        }
        if (stop != null && Bytes.compareTo(CellUtil.cloneRow(cell), stop) >= 0) {
          return;
        }
        rowStart = cell;
      }
      if (cell.getType() == Cell.Type.Put) {
        row.add(cell);
      }
    } while (scanner.next());
    if (!row.isEmpty()) {
      out.add(Result.create(row));
    }
  }

  /**
   * The keys of a store file's data blocks, found through its block index without reading all of
   * it. A deep index has few root entries (a 360 MB file: three), each over thousands of blocks:
   * its levels above the leaves are read whole (a few blocks), each leaf is read when a position
   * falls in it, and a leaf's share of the file is the data written before it (HBase writes a leaf
   * index block right after the data blocks it indexes).
   */
  static final class BlockKeys {
    private final HFile.Reader reader;
    private final int levels;
    // The entries pointing at data blocks (a one-level index) or at leaf index blocks.
    private final List<Entry> lowest;
    // The cumulative share of the data before each of those entries' ends.
    private final double[] ends;
    private final Map<Long, List<Entry>> leaves = new HashMap<>();

    BlockKeys(HFile.Reader reader, long fileLength) throws IOException {
      this.reader = reader;
      FixedFileTrailer trailer = reader.getTrailer();
      this.levels = trailer.getNumDataIndexLevels();
      List<Entry> level = StoreFileIndex.root(reader);
      for (int l = 2; l < levels; l++) {
        List<Entry> below = new ArrayList<>();
        for (Entry e : level) {
          below.addAll(StoreFileIndex.below(reader, e, BlockType.INTERMEDIATE_INDEX));
        }
        level = below;
      }
      this.lowest = level;
      this.ends = ends(level, levels > 1);
    }

    /**
     * Cumulative shares: by the offsets of leaf blocks (each written after its data), else (data
     * blocks themselves, or offsets out of order) equal.
     */
    private static double[] ends(List<Entry> entries, boolean leaves) {
      double[] ends = new double[entries.size()];
      boolean byOffset = leaves;
      for (int i = 1; i < entries.size() && byOffset; i++) {
        byOffset = entries.get(i).offset() > entries.get(i - 1).offset();
      }
      double total = byOffset && !entries.isEmpty() ? last(entries).offset() : entries.size();
      for (int i = 0; i < entries.size(); i++) {
        ends[i] = (byOffset ? entries.get(i).offset() : i + 1) / total;
      }
      return ends;
    }

    private static Entry last(List<Entry> entries) {
      return entries.get(entries.size() - 1);
    }

    /** The data blocks, estimated from the first leaf's entries when the index has leaves. */
    long approximateDataBlocks() throws IOException {
      if (lowest.isEmpty() || levels == 1) {
        return lowest.size();
      }
      return (long) lowest.size() * Math.max(1, leaf(lowest.get(0)).size());
    }

    /** The key of the data block at {@code share} (0..1) of the file's data. */
    Cell keyAt(double share) throws IOException {
      int i = Arrays.binarySearch(ends, share);
      i = Math.min(lowest.size() - 1, i >= 0 ? i + 1 : -i - 1);
      if (levels == 1) {
        return lowest.get(i).key();
      }
      double from = i == 0 ? 0 : ends[i - 1];
      double within = ends[i] > from ? (share - from) / (ends[i] - from) : 0;
      List<Entry> blocks = leaf(lowest.get(i));
      int j = (int) Math.min(blocks.size() - 1, Math.max(0, Math.floor(within * blocks.size())));
      return blocks.get(j).key();
    }

    private List<Entry> leaf(Entry parent) throws IOException {
      List<Entry> known = leaves.get(parent.offset());
      if (known == null) {
        known = StoreFileIndex.below(reader, parent, BlockType.LEAF_INDEX);
        leaves.put(parent.offset(), known);
      }
      return known;
    }
  }
}
