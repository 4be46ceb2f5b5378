package io.rekey.read;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.pacing.Throttle;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * HBase's TableInputFormat on the JVM's shared connection ({@link ExecutorConnections}) instead of
 * a new one for the split planning and for every task: setting a connection up costs a ZooKeeper
 * round trip and a meta lookup, which dominated short scans such as an incremental index run's.
 * Each task keeps to the throttle's scan rate ({@link Throttle#scanRate}).
 */
public final class SharedConnectionTableInputFormat extends TableInputFormat {
  @Override
  protected void initialize(JobContext context) throws IOException {
    initializeTable(
        ExecutorConnections.unclosable(getConf()), TableName.valueOf(getConf().get(INPUT_TABLE)));
  }

  @Override
  public RecordReader<ImmutableBytesWritable, Result> createRecordReader(
      InputSplit split, TaskAttemptContext context) throws IOException {
    RecordReader<ImmutableBytesWritable, Result> reader = super.createRecordReader(split, context);
    long rate = Throttle.of(context.getConfiguration()).scanRate();
    return rate > 0 ? new PacedRecordReader<>(reader, rate) : reader;
  }
}
