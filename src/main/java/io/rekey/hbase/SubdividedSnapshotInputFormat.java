package io.rekey.hbase;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HTableDescriptor;
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
 * TableSnapshotInputFormat with large regions read by several tasks: each region's key range, from
 * its first to its last row, is cut into equal pieces of the key space, one split each, so one big
 * region is not one slow task. HBase's own splits-per-region option cuts the region's boundaries
 * instead, which for the first and last region (open-ended) and for keys that share a long prefix
 * (timestamps) leaves almost everything in one piece.
 */
public final class SubdividedSnapshotInputFormat extends TableSnapshotInputFormat {
  /** How many pieces to cut each region into (1: HBase's own splits). */
  public static final String PIECES_PER_REGION = "rekey.snapshot.pieces.per.region";

  @Override
  @SuppressWarnings("deprecation") // HBase 2.5's split constructor still takes HTableDescriptor
  public List<InputSplit> getSplits(JobContext job) throws IOException, InterruptedException {
    List<InputSplit> splits = super.getSplits(job);
    Configuration conf = job.getConfiguration();
    int pieces = conf.getInt(PIECES_PER_REGION, 1);
    if (pieces <= 1 || splits.isEmpty()) {
      return splits;
    }
    List<InputSplit> out = new ArrayList<>();
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      for (InputSplit split : splits) {
        TableSnapshotInputFormatImpl.InputSplit d = delegate((TableSnapshotRegionSplit) split);
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
