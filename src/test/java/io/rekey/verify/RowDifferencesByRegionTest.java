package io.rekey.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RowDifferencesByRegionTest {
  /** The region of {@code row} the slow way: the last start at or before it, unsigned bytes. */
  private static int scanned(List<byte[]> starts, byte[] row) {
    int region = 0;
    for (int i = 0; i < starts.size(); i++) {
      if (Bytes.compareTo(starts.get(i), row) <= 0) {
        region = i;
      }
    }
    return region;
  }

  @Test
  void sendsEachKeyToTheRegionHoldingItWhateverItsBytes() {
    Random random = new Random(7);
    List<byte[]> starts = new ArrayList<>(List.of(new byte[0]));
    for (int b : new int[] {0x00, 0x10, 0x7f, 0x80, 0x81, 0xfe, 0xff}) {
      starts.add(new byte[] {(byte) b});
      starts.add(new byte[] {(byte) b, 0x00, (byte) 0x90});
    }
    starts.sort(Bytes.BYTES_COMPARATOR);
    RowDifferences.ByRegion byRegion = new RowDifferences.ByRegion(starts);
    assertThat(byRegion.numPartitions()).isEqualTo(starts.size());
    for (byte[] start : starts) {
      assertThat(byRegion.getPartition(RowDifferences.text(start)))
          .isEqualTo(starts.indexOf(start));
    }
    for (int i = 0; i < 20_000; i++) {
      byte[] row = new byte[random.nextInt(5)];
      random.nextBytes(row);
      assertThat(byRegion.getPartition(RowDifferences.text(row)))
          .as(Bytes.toStringBinary(row))
          .isEqualTo(scanned(starts, row));
    }
  }

  @Test
  void keysInTextFormSortAsHBaseSortsTheirBytes() {
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      byte[] a = new byte[random.nextInt(4)];
      byte[] b = new byte[random.nextInt(4)];
      random.nextBytes(a);
      random.nextBytes(b);
      assertThat(Integer.signum(RowDifferences.text(a).compareTo(RowDifferences.text(b))))
          .isEqualTo(Integer.signum(Bytes.compareTo(a, b)));
    }
  }

  @Test
  void refusesRegionStartsThatLeaveTheFirstKeysOut() {
    assertThatThrownBy(() -> new RowDifferences.ByRegion(List.of(new byte[] {1})))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
