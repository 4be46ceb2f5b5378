package io.rekey.stream.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** A queue's count of cells written and its rate over about the last minute, as status reads it. */
class WriteRateTest {
  private static WriteRate.Figure recorded(Put p) {
    var cell = p.getFamilyCellMap().get(Fences.FAMILY).get(0);
    return WriteRate.decode(
        Bytes.toString(CellUtil.cloneQualifier(cell)), CellUtil.cloneValue(cell));
  }

  @Test
  void eachBatchRecordsTheCountAndTheRateSinceTheWindowBegan() {
    WriteRate.Meter meter = new WriteRate.Meter("rs1%2C16020%2C1");
    WriteRate.Figure first = recorded(meter.written("peer", 100, 1_000));
    assertThat(first.walGroup()).isEqualTo("rs1%2C16020%2C1");
    assertThat(first.cellsWritten()).isEqualTo(100);
    assertThat(first.cellsPerSecond()).isZero();
    assertThat(first.describe(4_000))
        .isEqualTo("rs1%2C16020%2C1: 100 cells written in its first batch 3 s ago");

    WriteRate.Figure half = recorded(meter.written("peer", 200, 31_000));
    assertThat(half.cellsWritten()).isEqualTo(300);
    assertThat(half.cellsPerSecond()).isEqualTo(10.0);
    assertThat(half.windowSeconds()).isEqualTo(30.0);

    // A minute on, the window starts again from here; the record still spans the minute behind.
    WriteRate.Figure minute = recorded(meter.written("peer", 600, 61_000));
    assertThat(minute.cellsPerSecond()).isEqualTo(15.0);
    WriteRate.Figure next = recorded(meter.written("peer", 100, 91_000));
    assertThat(next.cellsWritten()).isEqualTo(1_000);
    assertThat(next.cellsPerSecond()).isEqualTo(3.33);
    assertThat(next.describe(91_000))
        .isEqualTo(
            "rs1%2C16020%2C1: 1,000 cells written, 3 cells/s over the 30 s before its last batch 0"
                + " s ago");
  }
}
