package io.rekey.rekey;

import static io.rekey.testing.StageTest.CellSpec.put;
import static org.assertj.core.api.Assertions.assertThat;

import com.holdenkarau.spark.testing.JavaRDDComparisons;
import io.rekey.keys.KeyMapping;
import io.rekey.run.RunFiles;
import io.rekey.testing.StageTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key mapping stage ({@link CellMapper}) over rows held in memory: every cell of a mapped row
 * goes on under the new key with family, qualifier, timestamp, type and value unchanged; a row the
 * source layout cannot read goes to the rejects file; and each partition's counts add up, a wide
 * row split into two batches counted once.
 */
class CellMapperStageTest extends StageTest {
  private static final KeyMapping MAPPING =
      KeyMapping.parse(
          "text: ts:long + '_' + sender + '_' + msgid", "salt(4, sender) + sender + msgid");

  @TempDir Path dir;

  @Test
  void everyCellMovesToItsNewKeyUnchangedAndRejectsAndCountsAddUp() throws Exception {
    List<List<StageTest.CellSpec>> rows =
        List.of(
            List.of(
                put("1000_alice_m1", "m:body", 1000, "hi"),
                put("1000_alice_m1", "m:to", 1000, "bob")),
            List.of(
                put("2000_bob_m2", "m:body", 2000, "v2"),
                put("2000_bob_m2", "m:body", 1500, "v1"),
                new StageTest.CellSpec(
                    "2000_bob_m2", "m", "to", 1800, KeyValue.Type.DeleteColumn, null)),
            // A wide row arrives in two batches.
            List.of(put("3000_carol_m3", "m:a", 3000, "1")),
            List.of(put("3000_carol_m3", "m:b", 3000, "2")),
            List.of(put("not-a-message-key", "m:body", 4000, "x")));
    String run = dir.toUri().toString();
    CellMapper stage =
        new CellMapper(
            MAPPING,
            false,
            false,
            run,
            StageTest.localFiles(),
            jsc().sc().longAccumulator(),
            jsc().sc().longAccumulator());
    JavaRDD<String> mapped = cellsOut(2, rows, stage);

    List<String> expected = new ArrayList<>();
    for (List<StageTest.CellSpec> row : rows.subList(0, 4)) {
      byte[] newKey = MAPPING.map(Bytes.toBytes(row.get(0).row()), (f, q) -> null);
      expected.addAll(StageTest.movedTo(newKey, row));
    }
    JavaRDDComparisons.assertRDDEquals(jsc().parallelize(expected), mapped);

    MapStats total =
        StageTest.summedCounts(run, 2, MapStats.ZERO, MapStats::fromLine, MapStats::plus);
    assertThat(total).isEqualTo(new MapStats(4, 8, 1, 1, 0));
    assertThat(RunFiles.rejectExamples(new Configuration(), new org.apache.hadoop.fs.Path(run), 10))
        .singleElement()
        .asString()
        .contains("not-a-message-key");
  }
}
