package io.rekey.read;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.pacing.Throttle;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableSplit;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * HBase's TableInputFormat on the JVM's shared connection ({@link ExecutorConnections}) instead of
 * a new one for the split planning and for every task: setting a connection up costs a ZooKeeper
 * round trip and a meta lookup, which dominated short scans such as an incremental index run's.
 * Each task keeps to the throttle's scan rate ({@link Throttle#scanRate}). Given {@link
 * #READ_TASKS}, big regions are read in pieces, as a snapshot read cuts them ({@link RegionCuts}):
 * one scan per region leaves cores idle behind the one region that holds most of a table.
 */
public final class SharedConnectionTableInputFormat extends TableInputFormat {
  /**
   * How many scans to aim for in all (at most 16 per region, at least one); unset: one a region.
   */
  public static final String READ_TASKS = "rekey.live.read.tasks";

  @Override
  protected void initialize(JobContext context) throws IOException {
    initializeTable(
        ExecutorConnections.unclosable(getConf()), TableName.valueOf(getConf().get(INPUT_TABLE)));
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    List<InputSplit> splits = super.getSplits(context);
    int wanted = context.getConfiguration().getInt(READ_TASKS, 0);
    if (wanted <= splits.size()) {
      return splits;
    }
    long[] sizes = new long[splits.size()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = ((TableSplit) splits.get(i)).getLength();
    }
    int[] piecesOf = RegionCuts.share(wanted, sizes);
    Configuration conf = context.getConfiguration();
    Connection connection = ExecutorConnections.unclosable(conf);
    TableName name = TableName.valueOf(conf.get(INPUT_TABLE));
    List<InputSplit> out = new ArrayList<>();
    try (Table table = connection.getTable(name)) {
      Set<String> families = RegionCuts.families(table.getDescriptor());
      for (int i = 0; i < splits.size(); i++) {
        TableSplit split = (TableSplit) splits.get(i);
        int pieces = piecesOf[i];
        if (pieces <= 1) {
          out.add(split);
          continue;
        }
        // Cuts are read from the live region's files: a file compacted away meanwhile only
        // makes the cuts fall back to the region's edge rows.
        byte[][] cuts = null;
        try {
          cuts =
              RegionCuts.fromStoreFiles(conf, regionDir(conf, connection, split), families, pieces);
        } catch (IOException e) {
          // Unlocated or unreadable: the edge rows below still balance the pieces.
        }
        if (cuts == null) {
          cuts = RegionCuts.betweenEdges(table, split.getStartRow(), split.getEndRow(), pieces);
        }
        List<byte[][]> ranges = RegionCuts.ranges(split.getStartRow(), split.getEndRow(), cuts);
        for (byte[][] range : ranges) {
          out.add(
              new TableSplit(
                  name,
                  null,
                  range[0],
                  range[1],
                  split.getRegionLocation(),
                  split.getEncodedRegionName(),
                  split.getLength() / ranges.size()));
        }
      }
    }
    return out;
  }

  /** The live region's directory under hbase.rootdir. */
  private static Path regionDir(Configuration conf, Connection connection, TableSplit split)
      throws IOException {
    String encoded = split.getEncodedRegionName();
    if (encoded == null || encoded.isEmpty()) {
      // A table of one region gets a split without its region's name.
      try (RegionLocator locator = connection.getRegionLocator(split.getTable())) {
        encoded = locator.getRegionLocation(split.getStartRow()).getRegion().getEncodedName();
      }
    }
    return new Path(
        CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(conf), split.getTable()), encoded);
  }

  @Override
  public RecordReader<ImmutableBytesWritable, Result> createRecordReader(
      InputSplit split, TaskAttemptContext context) throws IOException {
    RecordReader<ImmutableBytesWritable, Result> reader = super.createRecordReader(split, context);
    long rate = Throttle.of(context.getConfiguration()).scanRate();
    return rate > 0 ? new PacedRecordReader<>(reader, rate) : reader;
  }
}
