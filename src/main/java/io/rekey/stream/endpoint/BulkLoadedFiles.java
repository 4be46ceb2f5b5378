package io.rekey.stream.endpoint;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.shaded.protobuf.generated.WALProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * The store files of a bulk load into the source, which the WAL names only in a marker: its cells
 * are in those files, not in the log. A file is read where the region keeps it or, once a
 * compaction replaced it, in the archive; one gone from both (the archive's cleaner deleted it
 * before the stream got there) cannot be carried and is reported. HBase keeps them until every peer
 * shipped the load only with {@code hbase.replication.bulkload.enabled} (rekey.md).
 *
 * <p>HBase ships a marker at least once, and a marker shipped again may find its files gone after
 * its cells were carried: a carried load is recorded in the fence table on the target's cluster
 * (rows {@code 0xFB} and the peer id, one cell per load), and such a marker is not a refusal.
 *
 * <p>HBase's private API (its WAL marker's protobuf, its HFile reader), as its own replication sink
 * reads them; only here in the endpoint.
 */
final class BulkLoadedFiles {
  /** Cells handed on at a time: a loaded file may hold millions. */
  static final int CHUNK = 1_000;

  private static final byte CARRIED = (byte) 0xFB;

  /** Receives a file's cells, a chunk at a time, in the file's order. */
  @FunctionalInterface
  interface Chunks {
    void accept(List<Cell> cells) throws IOException;
  }

  /**
   * @param load the load's identity: its region and sequence number
   * @param found the files found, in the load's order
   * @param missing one line per file that is gone, naming it
   */
  record Files(String load, List<Path> found, List<String> missing) {}

  private BulkLoadedFiles() {}

  /** Whether {@code cell} is the WAL's marker of a bulk load. */
  static boolean isMarker(Cell cell) {
    return WALEdit.isMetaEditFamily(cell) && CellUtil.matchingQualifier(cell, WALEdit.BULK_LOAD);
  }

  /** Where the files a bulk load marker names are now. */
  static Files locate(Cell marker, TableName table, Configuration conf) throws IOException {
    WALProtos.BulkLoadDescriptor load = WALEdit.getBulkLoadDescriptor(marker);
    Path root = new Path(conf.get(HConstants.HBASE_DIR));
    FileSystem fs = root.getFileSystem(conf);
    String region = Bytes.toString(load.getEncodedRegionName().toByteArray());
    Path tableDir = tableDir(new Path(root, HConstants.BASE_NAMESPACE_DIR), table);
    Path archivedTableDir =
        tableDir(
            new Path(
                new Path(root, HConstants.HFILE_ARCHIVE_DIRECTORY), HConstants.BASE_NAMESPACE_DIR),
            table);
    List<Path> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (WALProtos.StoreDescriptor store : load.getStoresList()) {
      String family = Bytes.toString(store.getFamilyName().toByteArray());
      for (String name : store.getStoreFileList()) {
        Path live = new Path(new Path(new Path(tableDir, region), family), name);
        Path archived = new Path(new Path(new Path(archivedTableDir, region), family), name);
        if (fs.exists(live)) {
          found.add(live);
        } else if (fs.exists(archived)) {
          found.add(archived);
        } else {
          missing.add(live + " (nor in the archive)");
        }
      }
    }
    return new Files(region + "@" + load.getBulkloadSeqNum(), found, missing);
  }

  /** The record that the stream of {@code peerId} carried {@code load} into the target. */
  static Put carried(String peerId, String load) {
    return new Put(carriedRow(peerId))
        .addColumn(Fences.FAMILY, Bytes.toBytes(load), Bytes.toBytes(System.currentTimeMillis()));
  }

  /** Whether the stream of {@code peerId} carried {@code load} already. */
  static boolean wasCarried(Table fences, String peerId, String load) throws IOException {
    return fences.exists(new Get(carriedRow(peerId)).addColumn(Fences.FAMILY, Bytes.toBytes(load)));
  }

  private static byte[] carriedRow(String peerId) {
    return Bytes.add(new byte[] {CARRIED}, Bytes.toBytes(peerId));
  }

  private static Path tableDir(Path namespaces, TableName table) {
    return new Path(
        new Path(namespaces, table.getNamespaceAsString()), table.getQualifierAsString());
  }

  /**
   * Reads a file's cells into {@code chunks}. A file a compaction archives while it is being found
   * is read from the archive.
   *
   * @throws FileNotFoundException when it is in neither place
   */
  static void read(Path file, Configuration conf, Chunks chunks) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    Path at = fs.exists(file) ? file : archived(file, conf);
    try (HFile.Reader reader = HFile.createReader(fs, at, CacheConfig.DISABLED, true, conf);
        HFileScanner scanner = reader.getScanner(conf, false, false)) {
      if (!scanner.seekTo()) {
        return;
      }
      List<Cell> chunk = new ArrayList<>(CHUNK);
      do {
        // The scanner reuses its buffers: each cell is copied before it is kept.
        chunk.add(KeyValueUtil.copyToNewKeyValue(scanner.getCell()));
        if (chunk.size() == CHUNK) {
          chunks.accept(chunk);
          chunk = new ArrayList<>(CHUNK);
        }
      } while (scanner.next());
      if (!chunk.isEmpty()) {
        chunks.accept(chunk);
      }
    }
  }

  /** The archive's place of a store file of the region directory. */
  private static Path archived(Path file, Configuration conf) throws FileNotFoundException {
    Path root = new Path(conf.get(HConstants.HBASE_DIR));
    String live = Path.getPathWithoutSchemeAndAuthority(file).toString();
    String data =
        Path.getPathWithoutSchemeAndAuthority(new Path(root, HConstants.BASE_NAMESPACE_DIR))
            .toString();
    if (!live.startsWith(data + "/")) {
      throw new FileNotFoundException(file.toString());
    }
    return new Path(
        new Path(root, HConstants.HFILE_ARCHIVE_DIRECTORY),
        HConstants.BASE_NAMESPACE_DIR + live.substring(data.length()));
  }
}
