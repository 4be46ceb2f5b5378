package io.rekey.read;

import io.rekey.pacing.AdaptiveRate;
import java.io.IOException;
import org.apache.hadoop.mapreduce.RecordReader;

/**
 * A live scan's record reader that hands out at most the throttle's scan rate of results per second
 * ({@code --scan-rate}): the scanner then asks its region server for the next batch no faster.
 */
final class PacedRecordReader<K, V> extends ForwardingRecordReader<K, V> {
  private final AdaptiveRate rate;

  PacedRecordReader(RecordReader<K, V> reader, long rowsPerSecond) {
    super(reader);
    this.rate = new AdaptiveRate(rowsPerSecond);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    rate.acquire(1);
    return super.nextKeyValue();
  }
}
