package io.rekey.read;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where to cut a region's key range so that several tasks read it in about equal shares: the read
 * tasks shared out over regions by size, and cut points from the region's store files' block index
 * (each entry covers about the same share of its file's bytes), or, when the files cannot be read
 * that way, the key space between the region's first and last row cut evenly. The snapshot read
 * ({@link SubdividedSnapshotInputFormat}) and the live scan ({@link
 * SharedConnectionTableInputFormat}) cut the same way. Cuts only balance the work: the pieces of a
 * region always tile its range exactly, whatever the cuts ({@link #ranges}).
 */
final class RegionCuts {
  private static final Logger LOG = LoggerFactory.getLogger(RegionCuts.class);

  static final int MAX_PIECES_PER_REGION = 16;

  private RegionCuts() {}

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

  /** The table's family names: the directories {@link #fromStoreFiles} reads in a region's. */
  static Set<String> families(TableDescriptor table) {
    Set<String> names = new TreeSet<>();
    for (byte[] family : table.getColumnFamilyNames()) {
      names.add(Bytes.toString(family));
    }
    return names;
  }

  /**
   * The rows of {@code [start, end)} that also lie in {@code [scanStart, scanStop)}; an empty end
   * or stop is the table's end.
   */
  static byte[][] within(byte[] start, byte[] end, byte[] scanStart, byte[] scanStop) {
    byte[] lo = Bytes.compareTo(scanStart, start) > 0 ? scanStart : start;
    byte[] hi;
    if (end.length == 0) {
      hi = scanStop;
    } else if (scanStop.length == 0) {
      hi = end;
    } else {
      hi = Bytes.compareTo(scanStop, end) < 0 ? scanStop : end;
    }
    return new byte[][] {lo, hi};
  }

  /**
   * The key ranges {@code [lo, hi)} that tile {@code [start, end)} ({@code end} empty: the table's
   * end) at the cuts that fall strictly inside it; the first and last entries of {@code cuts} (the
   * region's first and last row, as {@link #fromStoreFiles} and {@link #betweenEdges} return them)
   * are not cuts.
   */
  static List<byte[][]> ranges(byte[] start, byte[] end, byte[][] cuts) {
    List<byte[][]> out = new ArrayList<>();
    byte[] lo = start;
    for (int i = 1; cuts != null && i + 1 < cuts.length; i++) {
      byte[] cut = cuts[i];
      if (Bytes.compareTo(cut, lo) <= 0 || (end.length > 0 && Bytes.compareTo(cut, end) >= 0)) {
        continue;
      }
      out.add(new byte[][] {lo, cut});
      lo = cut;
    }
    out.add(new byte[][] {lo, end});
    return out;
  }

  /**
   * Cut points that give the pieces about equal bytes: the first keys of the store files' root
   * block index entries under {@code regionDir}, weighted by file size, at equal steps of the
   * cumulative weight. Reads only the files' index blocks. Null when the files cannot be read that
   * way (reference files after a split, no index, no access, a file compacted away meanwhile).
   *
   * @param families the family directories to read
   * @return {@code pieces + 1} keys: the region's first row, the {@code pieces - 1} cuts, and a
   *     last key, as {@link Bytes#split} returns them
   */
  static byte[][] fromStoreFiles(
      Configuration conf, Path regionDir, Set<String> families, int pieces) {
    try {
      FileSystem fs = regionDir.getFileSystem(conf);
      // Each root index entry covers its file from its key to the next entry's key (or the
      // file's last key) and about the same share of the file's bytes.
      List<Span> spans = new ArrayList<>();
      for (String family : families) {
        Path familyDir = new Path(regionDir, family);
        if (!fs.exists(familyDir)) {
          continue;
        }
        for (FileStatus file : fs.listStatus(familyDir)) {
          if (file.isDirectory()) {
            continue;
          }
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
          regionDir.getName(),
          e.getMessage());
      return null;
    }
  }

  /**
   * The key space between the first and the last row of {@code [start, end)}, read through the
   * region server (a key each), cut evenly; null when the range holds fewer than two rows.
   */
  static byte[][] betweenEdges(Table table, byte[] start, byte[] end, int pieces)
      throws IOException {
    byte[] first = edgeRow(table, start, end, false);
    byte[] last = edgeRow(table, start, end, true);
    if (first == null || last == null || Bytes.compareTo(first, last) >= 0) {
      return null;
    }
    return Bytes.split(first, last, pieces - 1);
  }

  /** A key range of one store file and the bytes it holds. */
  record Span(byte[] from, byte[] to, double bytes) {}

  private static List<Span> spans(HFile.Reader reader, long fileBytes) throws IOException {
    List<StoreFileIndex.Entry> entries = StoreFileIndex.root(reader);
    List<Span> out = new ArrayList<>();
    if (entries.isEmpty() || reader.getLastKey().isEmpty()) {
      return out;
    }
    byte[] last = CellUtil.cloneRow(reader.getLastKey().get());
    for (int i = 0; i < entries.size(); i++) {
      byte[] from = CellUtil.cloneRow(entries.get(i).key());
      byte[] to = i + 1 < entries.size() ? CellUtil.cloneRow(entries.get(i + 1).key()) : last;
      out.add(new Span(from, to, fileBytes / (double) entries.size()));
    }
    return out;
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
    BigInteger a = number(from, length);
    BigInteger b = number(to, length);
    BigInteger k = number(key, length);
    BigInteger span = b.subtract(a);
    if (span.signum() <= 0) {
      return 0;
    }
    return Math.max(
        0,
        Math.min(
            1,
            new BigDecimal(k.subtract(a))
                .divide(new BigDecimal(span), MathContext.DECIMAL64)
                .doubleValue()));
  }

  private static BigInteger number(byte[] key, int length) {
    byte[] padded = new byte[length + 1];
    System.arraycopy(key, 0, padded, 1, key.length);
    return new BigInteger(padded);
  }

  /** The first or last row of {@code [start, end)}, read through the region server (one key). */
  private static byte[] edgeRow(Table table, byte[] start, byte[] end, boolean last)
      throws IOException {
    Scan scan =
        new Scan()
            // Reversed, the start row is the end key, which belongs to the next region.
            .withStartRow(last ? end : start, !last)
            .withStopRow(last ? start : end, last)
            .setReversed(last)
            .setLimit(1)
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    if (last && end.length == 0) {
      scan.withStartRow(new byte[0]);
    }
    try (ResultScanner s = table.getScanner(scan)) {
      Result r = s.next();
      return r == null ? null : r.getRow();
    }
  }
}
