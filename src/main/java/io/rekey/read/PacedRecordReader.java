package io.rekey.read;

import io.rekey.hbase.AdaptiveRate;
import java.io.IOException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * A live scan's record reader that hands out at most the throttle's scan rate of results per second
 * ({@code --scan-rate}): the scanner then asks its region server for the next batch no faster.
 */
final class PacedRecordReader<K, V> extends RecordReader<K, V> {
  private final RecordReader<K, V> reader;
  private final AdaptiveRate rate;

  PacedRecordReader(RecordReader<K, V> reader, long rowsPerSecond) {
    this.reader = reader;
    this.rate = new AdaptiveRate(rowsPerSecond);
  }

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context)
      throws IOException, InterruptedException {
    reader.initialize(split, context);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    rate.acquire(1);
    return reader.nextKeyValue();
  }

  @Override
  public K getCurrentKey() throws IOException, InterruptedException {
    return reader.getCurrentKey();
  }

  @Override
  public V getCurrentValue() throws IOException, InterruptedException {
    return reader.getCurrentValue();
  }

  @Override
  public float getProgress() throws IOException, InterruptedException {
    return reader.getProgress();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
