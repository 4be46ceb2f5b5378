package io.rekey.read;

import java.io.IOException;
import org.apache.hadoop.mapreduce.RecordReader;

/**
 * A record reader whose {@link #close} does its work once, as {@link java.io.Closeable} asks. Spark
 * 4.1 closes a task's Hadoop record reader twice (when the rows run out, and again from the
 * task-completion listener it registers when it opens the reader). HBase's snapshot reader is not
 * idempotent when closing the region failed the first time (it then releases the region's read lock
 * a second time, and the task fails with IllegalMonitorStateException). Spark 3.5 closed it once.
 */
final class ClosedOnceRecordReader<K, V> extends ForwardingRecordReader<K, V> {
  private boolean closed;

  ClosedOnceRecordReader(RecordReader<K, V> reader) {
    super(reader);
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      super.close();
    }
  }
}
