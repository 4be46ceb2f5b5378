package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The partitioner's region search against a byte-by-byte scan of the region starts. */
class RegionPartitionerTest {
  // Few byte values, so keys often share long starts; a zero, so one key ends where another goes on
  // with a zero byte; bytes above 0x7f, where a signed comparison would order them wrongly.
  private static final byte[] ALPHABET = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};

  private static byte[] randomKey(Random random, int maxLength) {
    byte[] key = new byte[random.nextInt(maxLength + 1)];
    for (int i = 0; i < key.length; i++) {
      key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return key;
  }

  @Test
  void regionSearchAgreesWithAByteByByteScanForRowsInsideLargerArrays() {
    Random random = new Random(5);
    for (int layout = 0; layout < 200; layout++) {
      TreeSet<byte[]> starts = new TreeSet<>(Bytes.BYTES_COMPARATOR);
      int count = 1 + random.nextInt(40);
      while (starts.size() < count) {
        byte[] start = randomKey(random, 11);
        if (start.length > 0) {
          starts.add(start);
        }
      }
      byte[][] sorted = starts.toArray(new byte[0][]);
      RegionPartitioner partitioner = new RegionPartitioner(sorted, 1);
      for (int n = 0; n < 500; n++) {
        // Half the rows are a start, or a start cut or extended, to land on and around boundaries.
        byte[] row = randomKey(random, 12);
        if (random.nextBoolean()) {
          byte[] start = sorted[random.nextInt(sorted.length)];
          row = Arrays.copyOf(start, Math.max(0, start.length + random.nextInt(5) - 2));
        }
        int expected = 0;
        while (expected < sorted.length && Bytes.compareTo(row, sorted[expected]) >= 0) {
          expected++;
        }
        byte[] padded = new byte[row.length + 6];
        random.nextBytes(padded);
        System.arraycopy(row, 0, padded, 3, row.length);
        assertThat(partitioner.region(padded, 3, row.length))
            .as("row %s", Bytes.toStringBinary(row))
            .isEqualTo(expected);
        assertThat(partitioner.region(row)).isEqualTo(expected);
      }
    }
  }
}
