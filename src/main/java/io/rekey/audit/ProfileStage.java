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
 * serialized, one element per partition (merged on the driver as tasks finish). Profiles at most
 * {@code rowsPerSplit} rows when that is above 0, and only the rows a key hash chooses under a
 * sample fraction below 1.
 */
final class ProfileStage
    implements FlatMapFunction<Iterator<Tuple2<ImmutableBytesWritable, Result>>, byte[]> {
  private static final long serialVersionUID = 1L;

  private final ProfileSettings settings;
  // Names this audit's samples, so its tasks share their pruning thresholds and no other's.
  private final String run;
  private final long rowsPerSplit;
  private final double sampleFraction;
  private final LongAccumulator cellsProgress;

  ProfileStage(
      ProfileSettings settings,
      String run,
      long rowsPerSplit,
      double sampleFraction,
      LongAccumulator cellsProgress) {
    this.settings = settings;
    this.run = run;
    this.rowsPerSplit = rowsPerSplit;
    this.sampleFraction = sampleFraction;
    this.cellsProgress = cellsProgress;
  }

  /**
   * Whether a row is profiled under {@code --sample-fraction}: chosen by a hash of its key, so the
   * same rows are chosen every run (scheduled audits compare like with like) and a wide row read in
   * batches is taken or left whole.
   */
  private boolean chosen(byte[] row) {
    if (sampleFraction >= 1) {
      return true;
    }
    return (RowHash.of(row) >>> 11) < sampleFraction * (1L << 53);
  }

  @Override
  public Iterator<byte[]> call(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    TableProfile profile = new TableProfile(settings);
    profile.shareSampleThresholds(run);
    byte[] lastRow = null;
    boolean lastRowChosen = false;
    long rowsRead = 0;
    long pendingProgress = 0;
    while (rows.hasNext()) {
      Result result = rows.next()._2();
      byte[] row = result.getRow();
      if (lastRow == null || !Arrays.equals(lastRow, row)) {
        lastRow = row;
        lastRowChosen = chosen(row);
        if (lastRowChosen) {
          if (rowsPerSplit > 0 && rowsRead == rowsPerSplit) {
            break;
          }
          rowsRead++;
        }
      }
      pendingProgress += result.size();
      if (lastRowChosen) {
        profile.add(row, Arrays.asList(result.rawCells()));
      }
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
