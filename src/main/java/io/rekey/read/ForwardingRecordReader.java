package io.rekey.read;

import java.io.IOException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * A record reader that hands every call to another one: the base of readers that change one thing
 * about HBase's (when they close, how fast they read).
 */
abstract class ForwardingRecordReader<K, V> extends RecordReader<K, V> {
  private final RecordReader<K, V> reader;

  ForwardingRecordReader(RecordReader<K, V> reader) {
    this.reader = reader;
  }

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context)
      throws IOException, InterruptedException {
    reader.initialize(split, context);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
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
