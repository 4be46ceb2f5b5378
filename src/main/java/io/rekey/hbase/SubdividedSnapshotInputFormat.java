package io.rekey.hbase;

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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HTableDescriptor;
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
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;

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
  /** How many read tasks to aim for in all (at most 16 per region; at least one per region). */
  public static final String READ_TASKS = "rekey.snapshot.read.tasks";

  static final int MAX_PIECES_PER_REGION = 16;

  @Override
  @SuppressWarnings("deprecation") // HBase 2.5's split constructor still takes HTableDescriptor
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
        byte[][] cuts = null;
        try (Table table = connection.getTable(d.getHtd().getTableName())) {
          byte[] first = edgeRow(table, region, false);
          byte[] last = edgeRow(table, region, true);
          if (first != null && last != null && Bytes.compareTo(first, last) < 0) {
            cuts = Bytes.split(first, last, pieces - 1);
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
                  new HTableDescriptor(d.getHtd()),
                  d.getRegionInfo(),
                  Arrays.asList(d.getLocations()),
                  bounded,
                  new Path(d.getRestoreDir())));
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
