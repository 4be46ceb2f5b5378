package io.rekey.audit;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The Spark side of the audit: profiles one input split into a {@link TableProfile} and returns it
 * serialized, one element per partition (reduced on the driver in a tree). Reads at most {@code
 * rowsPerSplit} rows when that is above 0.
 */
final class ProfileStage
    implements FlatMapFunction<Iterator<Tuple2<ImmutableBytesWritable, Result>>, byte[]> {
  private static final long serialVersionUID = 1L;

  private final ProfileSettings settings;
  private final long rowsPerSplit;
  private final LongAccumulator cellsProgress;

  ProfileStage(ProfileSettings settings, long rowsPerSplit, LongAccumulator cellsProgress) {
    this.settings = settings;
    this.rowsPerSplit = rowsPerSplit;
    this.cellsProgress = cellsProgress;
  }

  @Override
  public Iterator<byte[]> call(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    TableProfile profile = new TableProfile(settings);
    byte[] lastRow = null;
    long rowsRead = 0;
    long pendingProgress = 0;
    while (rows.hasNext()) {
      Result result = rows.next()._2();
      byte[] row = result.getRow();
      if (lastRow == null || !Arrays.equals(lastRow, row)) {
        if (rowsPerSplit > 0 && rowsRead == rowsPerSplit) {
          break;
        }
        rowsRead++;
        lastRow = row;
      }
      profile.add(row, Arrays.asList(result.rawCells()));
      pendingProgress += result.size();
      // An accumulator update per result would cost more than the profiling of small rows.
      if (pendingProgress >= 10_000) {
        cellsProgress.add(pendingProgress);
        pendingProgress = 0;
      }
    }
    cellsProgress.add(pendingProgress);
    return List.of(profile.finish().toBytes()).iterator();
  }
}
