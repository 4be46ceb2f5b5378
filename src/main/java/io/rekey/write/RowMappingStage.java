package io.rekey.write;

import io.rekey.hbase.ShippedConfiguration;
import java.util.Iterator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * A map stage in front of the write engine: each partition's source rows into {@link ShuffleCell}
 * pairs ({@link RowsToCells}), its rejects and counts into the partition's records in the run
 * directory, its rejected rows counted as they are found so the driver can stop a job that rejects
 * more than it may. Subclasses say what a partition's rows become.
 */
public abstract class RowMappingStage
    implements Function2<
        Integer,
        Iterator<Tuple2<ImmutableBytesWritable, Result>>,
        Iterator<Tuple2<byte[], byte[]>>> {
  private static final long serialVersionUID = 1L;

  /** The run directory, where each partition writes its records. */
  protected final String runDir;

  /** The job's HBase and Hadoop settings, as shipped to the executors. */
  protected final ShippedConfiguration conf;

  /** Rejected rows, counted as they are found. */
  protected final LongAccumulator rowsRejectedProgress;

  protected RowMappingStage(
      String runDir, ShippedConfiguration conf, LongAccumulator rowsRejectedProgress) {
    this.runDir = runDir;
    this.conf = conf;
    this.rowsRejectedProgress = rowsRejectedProgress;
  }

  @Override
  public final Iterator<Tuple2<byte[], byte[]>> call(
      Integer partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    return partition(partition, rows);
  }

  /** What partition {@code partition}'s rows become. */
  protected abstract RowsToCells partition(
      int partition, Iterator<Tuple2<ImmutableBytesWritable, Result>> rows);

  /** Partition {@code partition}'s rejects and counts. */
  protected final PartitionRecords records(int partition) {
    return new PartitionRecords(conf, runDir, partition);
  }
}
