package io.rekey.rekey;

import static io.rekey.testing.StageTest.CellSpec.put;
import static org.assertj.core.api.Assertions.assertThat;

import com.holdenkarau.spark.testing.JavaRDDComparisons;
import io.rekey.keys.KeyMapping;
import io.rekey.testing.StageTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sync window mapping stage ({@link SyncMapper}) for a key of the old key alone, over a
 * window's raw rows held in memory: every Put and every kind of delete marker goes to the row's new
 * key with its timestamp, a row the layout cannot read is rejected, and the window's counts add up.
 * (A key bound to a column reads each row's history from the source table; {@code SyncIT} covers it
 * on a cluster, and {@code WindowMappingTest} its per-row logic.)
 */
class SyncMapperStageTest extends StageTest {
  private static final KeyMapping MAPPING =
      KeyMapping.parse(
          "text: ts:long + '_' + sender + '_' + msgid", "salt(4, sender) + sender + msgid");

  @TempDir Path dir;

  @Test
  void everyCellAndMarkerOfTheWindowGoesToTheNewKeyAndTheCountsAddUp() throws Exception {
    List<List<StageTest.CellSpec>> window =
        List.of(
            List.of(
                put("1000_alice_m1", "m:body", 1500, "edited"),
                new StageTest.CellSpec(
                    "1000_alice_m1", "m", "to", 1600, KeyValue.Type.DeleteColumn, null)),
            List.of(
                new StageTest.CellSpec(
                    "2000_bob_m2", "m", null, 1700, KeyValue.Type.DeleteFamily, null)),
            List.of(
                new StageTest.CellSpec(
                    "3000_carol_m3", "m", "body", 1200, KeyValue.Type.Delete, null),
                put("3000_carol_m3", "m:body", 1800, "new")),
            List.of(put("junk", "m:body", 1900, "x")));
    String run = dir.toUri().toString();
    SyncMapper stage =
        new SyncMapper(
            new WindowMapping(MAPPING, 1000, 2000),
            "ns:source",
            2000,
            run,
            StageTest.localFiles(),
            jsc().sc().longAccumulator(),
            10_000);
    JavaRDD<String> out = cellsOut(2, window, stage);

    List<String> expected = new ArrayList<>();
    for (List<StageTest.CellSpec> row : window.subList(0, 3)) {
      byte[] newKey = MAPPING.map(Bytes.toBytes(row.get(0).row()), (f, q) -> null);
      expected.addAll(StageTest.movedTo(newKey, row));
    }
    assertThat(expected).anyMatch(c -> c.contains(" DeleteFamily="));
    JavaRDDComparisons.assertRDDEquals(jsc().parallelize(expected), out);

    SyncStats total =
        StageTest.summedCounts(run, 2, SyncStats.ZERO, SyncStats::fromLine, SyncStats::plus);
    assertThat(total.rowsRead()).isEqualTo(4);
    assertThat(total.cellsRead()).isEqualTo(6);
    assertThat(total.deletesRead()).isEqualTo(3);
    assertThat(total.rowsRejected()).isEqualTo(1);
    assertThat(total.cellsWritten()).isEqualTo(5);
    assertThat(total.cellsOut()).isEqualTo(5);
    assertThat(total.addsUp()).isTrue();
  }
}
