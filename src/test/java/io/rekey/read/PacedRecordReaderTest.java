package io.rekey.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Iterator;
import java.util.stream.IntStream;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.junit.jupiter.api.Test;

class PacedRecordReaderTest {
  /** Integers 0..n-1 as records. */
  private static RecordReader<Integer, Integer> numbers(int n) {
    Iterator<Integer> it = IntStream.range(0, n).iterator();
    return new RecordReader<>() {
      private Integer current;

      @Override
      public void initialize(InputSplit split, TaskAttemptContext context) {}

      @Override
      public boolean nextKeyValue() {
        current = it.hasNext() ? it.next() : null;
        return current != null;
      }

      @Override
      public Integer getCurrentKey() {
        return current;
      }

      @Override
      public Integer getCurrentValue() {
        return current;
      }

      @Override
      public float getProgress() {
        return 0;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void readsEveryRecordAndNoFasterThanTheScanRate() throws Exception {
    PacedRecordReader<Integer, Integer> paced = new PacedRecordReader<>(numbers(31), 20);
    long t0 = System.nanoTime();
    int read = 0;
    while (paced.nextKeyValue()) {
      assertThat(paced.getCurrentValue()).isEqualTo(read);
      read++;
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertThat(read).isEqualTo(31);
    // 32 permits (the last call finds no record), the first at once, at 20 per second: 1.55 s.
    assertThat(seconds).as("a lower bound: the throttle cannot be beaten").isGreaterThan(1.4);
  }
}
