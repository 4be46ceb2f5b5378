package io.rekey.read;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TableSnapshotInputFormat with large regions read by several tasks. A wanted number of read tasks
 * is shared out over the regions by their size (a time-first table's last region often holds most
 * of the data), and each region's key range, from its first to its last row, is cut into equal
 * pieces of the key space, one split each. HBase's own splits-per-region option gives every region
 * the same number of pieces and cuts the region's boundaries instead, which for the first and last
 * region (open-ended) and for keys that share a long prefix (timestamps) leaves almost everything
 * in one piece.
 */
public final class SubdividedSnapshotInputFormat extends TableSnapshotInputFormat {
  private static final Logger LOG = LoggerFactory.getLogger(SubdividedSnapshotInputFormat.class);

  /** How many read tasks to aim for in all (at most 16 per region; at least one per region). */
  public static final String READ_TASKS = "rekey.snapshot.read.tasks";

  static final int MAX_PIECES_PER_REGION = 16;

  @Override
  public RecordReader<ImmutableBytesWritable, Result> createRecordReader(
      InputSplit split, TaskAttemptContext context) throws IOException {
    return new ClosedOnceRecordReader<>(super.createRecordReader(split, context));
  }

  @Override
  // The split's region comes back as HBase 2's deprecated HRegionInfo, and goes in as it came.
  @SuppressWarnings("deprecation")
  public List<InputSplit> getSplits(JobContext job) throws IOException, InterruptedException {
    List<InputSplit> splits = super.getSplits(job);
    Configuration conf = job.getConfiguration();
    int wanted = conf.getInt(READ_TASKS, 1);
    if (wanted <= splits.size() || splits.isEmpty()) {
      return splits;
    }
    List<InputSplit> out = new ArrayList<>();
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      List<TableSnapshotInputFormatImpl.InputSplit> regions = new ArrayList<>();
      for (InputSplit split : splits) {
        regions.add(delegate((TableSnapshotRegionSplit) split));
      }
      int[] piecesOf = share(wanted, sizes(connection, regions));
      for (int r = 0; r < regions.size(); r++) {
        TableSnapshotInputFormatImpl.InputSplit d = regions.get(r);
        InputSplit split = splits.get(r);
        int pieces = piecesOf[r];
        if (pieces <= 1) {
          out.add(split);
          continue;
        }
        RegionInfo region = d.getRegionInfo();
        Scan scan = TableMapReduceUtil.convertStringToScan(d.getScan());
        byte[][] cuts = indexCuts(conf, d, pieces);
        if (cuts == null) {
          try (Table table = connection.getTable(d.getHtd().getTableName())) {
            byte[] first = edgeRow(table, region, false);
            byte[] last = edgeRow(table, region, true);
            if (first != null && last != null && Bytes.compareTo(first, last) < 0) {
              cuts = Bytes.split(first, last, pieces - 1);
            }
          }
        }
        if (cuts == null) {
          out.add(split);
          continue;
        }
        // cuts = first, c1 .. c(pieces-1), last: the pieces are [start, c1) .. [c(pieces-1), end).
        byte[] lo = region.getStartKey();
        for (int i = 1; i <= pieces; i++) {
          byte[] hi = i < pieces ? cuts[i] : region.getEndKey();
          if (i < pieces && Bytes.compareTo(hi, lo) <= 0) {
            continue;
          }
          Scan bounded = new Scan(scan).withStartRow(lo).withStopRow(hi);
          out.add(
              new TableSnapshotRegionSplit(
                  new TableSnapshotInputFormatImpl.InputSplit(
                      d.getHtd(),
                      d.getRegionInfo(),
                      Arrays.asList(d.getLocations()),
                      bounded,
                      new Path(d.getRestoreDir()))));
          lo = hi;
        }
      }
    }
    return out;
  }

  /**
   * The bytes each region holds, as its region server reports them (the snapshot's regions are the
   * table's unless it split since; an unknown region counts as the mean).
   */
  private static long[] sizes(
      Connection connection, List<TableSnapshotInputFormatImpl.InputSplit> regions)
      throws IOException {
    Map<String, Long> byName = new HashMap<>();
    TableName table = regions.get(0).getHtd().getTableName();
    try (Admin admin = connection.getAdmin()) {
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
          long bytes =
              (long) m.getStoreFileSize().get(Size.Unit.BYTE)
                  + (long) m.getMemStoreSize().get(Size.Unit.BYTE);
          byName.put(Bytes.toStringBinary(m.getRegionName()), bytes);
        }
      }
    }
    long[] sizes = new long[regions.size()];
    long known = 0;
    int found = 0;
    for (int i = 0; i < sizes.length; i++) {
      Long bytes = byName.get(Bytes.toStringBinary(regions.get(i).getRegionInfo().getRegionName()));
      sizes[i] = bytes == null ? -1 : bytes;
      if (bytes != null) {
        known += bytes;
        found++;
      }
    }
    long mean = found == 0 ? 1 : Math.max(1, known / found);
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 0) {
        sizes[i] = mean;
      }
    }
    return sizes;
  }

  /**
   * Shares {@code wanted} read tasks out over regions by size: one each, the rest in proportion, at
   * most {@link #MAX_PIECES_PER_REGION} per region.
   */
  static int[] share(int wanted, long[] sizes) {
    int[] pieces = new int[sizes.length];
    Arrays.fill(pieces, 1);
    long total = 0;
    for (long s : sizes) {
      total += Math.max(0, s);
    }
    int extra = wanted - sizes.length;
    if (extra <= 0 || total == 0) {
      return pieces;
    }
    for (int i = 0; i < sizes.length; i++) {
      int more = (int) Math.round((double) extra * Math.max(0, sizes[i]) / total);
      pieces[i] = Math.min(MAX_PIECES_PER_REGION, 1 + more);
    }
    return pieces;
  }

  /**
   * Cut points that give the pieces about equal bytes: the first keys of the region's store files'
   * block index entries (each covering about the same number of bytes of its file), weighted by
   * file size, at equal steps of the cumulative weight. Reads only the files' index blocks. Null
   * when the region's files cannot be read that way (reference files after a split, no index), and
   * the key space is cut evenly instead.
   *
   * @return {@code pieces + 1} keys: the region's first row, the {@code pieces - 1} cuts, and a
   *     last key, as {@link Bytes#split} returns them
   */
  static byte[][] indexCuts(
      Configuration conf, TableSnapshotInputFormatImpl.InputSplit d, int pieces) {
    try {
      Path regionDir =
          new Path(
              CommonFSUtils.getTableDir(new Path(d.getRestoreDir()), d.getHtd().getTableName()),
              d.getRegionInfo().getEncodedName());
      FileSystem fs = regionDir.getFileSystem(conf);
      // Each root index entry covers its file from its key to the next entry's key (or the
      // file's last key) and about the same share of the file's bytes.
      List<Span> spans = new ArrayList<>();
      for (FileStatus family : fs.listStatus(regionDir)) {
        if (!family.isDirectory() || family.getPath().getName().startsWith(".")) {
          continue;
        }
        for (FileStatus file : fs.listStatus(family.getPath())) {
          StoreFileInfo info = new StoreFileInfo(conf, fs, file);
          if (info.isReference()) {
            return null;
          }
          FileStatus real = info.getReferencedFileStatus(fs);
          HFile.Reader reader =
              HFile.createReader(fs, real.getPath(), CacheConfig.DISABLED, true, conf);
          try {
            spans.addAll(spans(reader, real.getLen()));
          } finally {
            reader.close();
          }
        }
      }
      return cutsFromSpans(spans, pieces);
    } catch (IOException | RuntimeException e) {
      LOG.info(
          "cannot read the block index of region {} ({}); cutting its key space evenly",
          d.getRegionInfo().getEncodedName(),
          e.getMessage());
      return null;
    }
  }

  /** A key range of one store file and the bytes it holds. */
  record Span(byte[] from, byte[] to, double bytes) {}

  private static List<Span> spans(HFile.Reader reader, long fileBytes) throws IOException {
    List<Cell> keys = rootKeys(reader);
    int entries = keys.size();
    List<Span> out = new ArrayList<>();
    if (entries == 0 || reader.getLastKey().isEmpty()) {
      return out;
    }
    byte[] last = CellUtil.cloneRow(reader.getLastKey().get());
    for (int i = 0; i < entries; i++) {
      byte[] from = CellUtil.cloneRow(keys.get(i));
      byte[] to = i + 1 < entries ? CellUtil.cloneRow(keys.get(i + 1)) : last;
      out.add(new Span(from, to, fileBytes / (double) entries));
    }
    return out;
  }

  /**
   * The first keys of a store file's root block index entries, in order: each entry covers about
   * the same share of the file's bytes (one data block in a flat index, many in a deep one).
   */
  static List<Cell> rootKeys(HFile.Reader reader) throws IOException {
    List<Cell> keys = new ArrayList<>();
    for (StoreFileIndex.Entry e : StoreFileIndex.root(reader)) {
      keys.add(e.key());
    }
    return keys;
  }

  /**
   * Cut points at equal shares of the bytes, assuming bytes spread evenly over the key space within
   * each span (a span is a few blocks in a flat index, a few thousand in a deep one).
   */
  static byte[][] cutsFromSpans(List<Span> spans, int pieces) {
    if (spans.isEmpty()) {
      return null;
    }
    // Spans of different files overlap; the share before a key is the sum over all spans.
    TreeMap<byte[], Boolean> points = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    double total = 0;
    for (Span s : spans) {
      points.put(s.from(), true);
      points.put(s.to(), true);
      total += s.bytes();
    }
    byte[][] cuts = new byte[pieces + 1][];
    cuts[0] = points.firstKey();
    cuts[pieces] = points.lastKey();
    List<byte[]> keys = new ArrayList<>(points.keySet());
    int next = 1;
    for (int i = 0; i + 1 < keys.size() && next < pieces; i++) {
      double before = bytesBefore(spans, keys.get(i));
      double after = bytesBefore(spans, keys.get(i + 1));
      while (next < pieces && total * next / pieces < after) {
        double f = after == before ? 0 : (total * next / pieces - before) / (after - before);
        byte[][] steps = Bytes.split(keys.get(i), keys.get(i + 1), 98);
        byte[] cut = steps == null ? keys.get(i) : steps[(int) Math.round(f * 99)];
        if (Bytes.compareTo(cut, cuts[next - 1]) <= 0) {
          return null;
        }
        cuts[next++] = cut;
      }
    }
    return next == pieces ? cuts : null;
  }

  /** The bytes of all spans before {@code key}, spans counted in proportion to the key space. */
  private static double bytesBefore(List<Span> spans, byte[] key) {
    double sum = 0;
    for (Span s : spans) {
      if (Bytes.compareTo(key, s.to()) >= 0) {
        sum += s.bytes();
      } else if (Bytes.compareTo(key, s.from()) > 0) {
        sum += s.bytes() * keyFraction(s.from(), s.to(), key);
      }
    }
    return sum;
  }

  /** Where {@code key} lies between {@code from} and {@code to}, 0..1, in the key space. */
  static double keyFraction(byte[] from, byte[] to, byte[] key) {
    int length = Math.max(Math.max(from.length, to.length), key.length);
    java.math.BigInteger a = number(from, length);
    java.math.BigInteger b = number(to, length);
    java.math.BigInteger k = number(key, length);
    java.math.BigInteger span = b.subtract(a);
    if (span.signum() <= 0) {
      return 0;
    }
    return Math.max(
        0,
        Math.min(
            1,
            new java.math.BigDecimal(k.subtract(a))
                .divide(new java.math.BigDecimal(span), java.math.MathContext.DECIMAL64)
                .doubleValue()));
  }

  private static java.math.BigInteger number(byte[] key, int length) {
    byte[] padded = new byte[length + 1];
    System.arraycopy(key, 0, padded, 1, key.length);
    return new java.math.BigInteger(padded);
  }

  /** The region's first or last row, read through the region server (one key, cheap). */
  private static byte[] edgeRow(Table table, RegionInfo region, boolean last) throws IOException {
    Scan scan =
        new Scan()
            .withStartRow(last ? region.getEndKey() : region.getStartKey())
            .withStopRow(last ? region.getStartKey() : region.getEndKey())
            .setReversed(last)
            .setLimit(1)
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    if (last && region.getEndKey().length == 0) {
      scan.withStartRow(new byte[0]);
    }
    try (ResultScanner s = table.getScanner(scan)) {
      Result r = s.next();
      return r == null ? null : r.getRow();
    }
  }

  /** The split's fields, read back from its serialized form (HBase keeps the getter private). */
  private static TableSnapshotInputFormatImpl.InputSplit delegate(TableSnapshotRegionSplit split)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      split.write(out);
    }
    TableSnapshotInputFormatImpl.InputSplit d = new TableSnapshotInputFormatImpl.InputSplit();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      d.readFields(in);
    }
    return d;
  }
}
