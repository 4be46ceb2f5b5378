package io.rekey.read;

import io.rekey.hbase.TableAdmin;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

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
      int[] piecesOf = RegionCuts.share(wanted, sizes(connection, regions));
      for (int r = 0; r < regions.size(); r++) {
        TableSnapshotInputFormatImpl.InputSplit d = regions.get(r);
        int pieces = piecesOf[r];
        if (pieces <= 1) {
          out.add(splits.get(r));
          continue;
        }
        RegionInfo region = d.getRegionInfo();
        byte[][] cuts =
            RegionCuts.fromStoreFiles(conf, regionDir(d), RegionCuts.families(d.getHtd()), pieces);
        if (cuts == null) {
          try (Table table = connection.getTable(d.getHtd().getTableName())) {
            cuts = RegionCuts.betweenEdges(table, region.getStartKey(), region.getEndKey(), pieces);
          }
        }
        // A region read whole has the job's scan, whose own rows may bound it further.
        Scan scan = TableMapReduceUtil.convertStringToScan(d.getScan());
        byte[][] bounds =
            RegionCuts.within(
                region.getStartKey(), region.getEndKey(), scan.getStartRow(), scan.getStopRow());
        for (byte[][] range : RegionCuts.ranges(bounds[0], bounds[1], cuts)) {
          Scan bounded = new Scan(scan).withStartRow(range[0]).withStopRow(range[1]);
          out.add(
              new TableSnapshotRegionSplit(
                  new TableSnapshotInputFormatImpl.InputSplit(
                      d.getHtd(),
                      d.getRegionInfo(),
                      Arrays.asList(d.getLocations()),
                      bounded,
                      new Path(d.getRestoreDir()))));
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
    TableName table = regions.get(0).getHtd().getTableName();
    Map<String, Long> byName = new TableAdmin(connection).regionBytes(table);
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

  /** Where the snapshot's region is restored: its family directories link the snapshot's files. */
  private static Path regionDir(TableSnapshotInputFormatImpl.InputSplit d) {
    return new Path(
        CommonFSUtils.getTableDir(new Path(d.getRestoreDir()), d.getHtd().getTableName()),
        d.getRegionInfo().getEncodedName());
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
