package io.rekey.index;

import static io.rekey.testing.StageTest.CellSpec.put;
import static org.assertj.core.api.Assertions.assertThat;

import com.holdenkarau.spark.testing.JavaRDDComparisons;
import io.rekey.index.entries.IndexEntries;
import io.rekey.options.OptionValues;
import io.rekey.testing.StageTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index entry stage of a build ({@link IndexEntryStage}) over rows held in memory: each row
 * with the value gives its entry and its row record, stamped with the run's time; a row without the
 * value is counted, not indexed; a row whose entry key cannot be made is rejected; the partitions'
 * counts add up.
 */
class IndexEntryStageTest extends StageTest {
  private static final long STAMP = 9_000;

  @TempDir Path dir;

  @Test
  void eachRowGivesItsEntriesAndRecordAndTheCountsAddUp() throws Exception {
    OptionValues given =
        OptionValues.empty()
            .with("source", "ns:messages")
            .with("source-key", "text: sent:long + '_' + who + '_' + msgid")
            .with("column", "m:sender")
            .with("index-key", "value + reverse_ts(sent) + key")
            .with("covered", "m:subject")
            .with("index-table", "ns:by_sender");
    IndexDefinition definition =
        IndexDefinition.from(given.validate(IndexDefinition.declaredWithFile()));
    List<List<StageTest.CellSpec>> rows =
        List.of(
            List.of(
                put("1000_alice_m1", "m:sender", 1000, "alice"),
                put("1000_alice_m1", "m:subject", 1000, "hello")),
            List.of(put("2000_bob_m2", "m:subject", 2000, "no sender")),
            List.of(
                put("3000_bob_m3", "m:sender", 3000, "bob"),
                put("3000_bob_m3", "m:sender", 2500, "robert")),
            List.of(put("not-a-message-key", "m:sender", 4000, "carol")));
    String run = dir.toUri().toString();
    IndexEntryStage stage =
        new IndexEntryStage(
            definition, false, run, StageTest.localFiles(), jsc().sc().longAccumulator(), STAMP);
    JavaRDD<String> made = cellsOut(2, rows, stage);

    // What the per-row logic gives each row, worked out here without Spark.
    IndexEntries entries = definition.entries();
    List<String> expected = new ArrayList<>();
    for (List<StageTest.CellSpec> spec : rows.subList(0, 3)) {
      Cell[] cells = spec.stream().map(StageTest.CellSpec::cell).toArray(Cell[]::new);
      Arrays.sort(cells, CellComparator.getInstance());
      Result row = Result.create(cells);
      List<IndexEntries.Entry> rowEntries = entries.entries(row);
      for (IndexEntries.Entry e : rowEntries) {
        expected.addAll(StageTest.cells(entries.record(e, row, STAMP)));
      }
      if (!rowEntries.isEmpty()) {
        expected.addAll(StageTest.cells(entries.rowRecord(row.getRow(), rowEntries, STAMP)));
      }
    }
    // alice and bob (his newest value only): an entry and a row record each.
    assertThat(expected).anyMatch(c -> c.startsWith("alice")).anyMatch(c -> c.startsWith("bob"));
    assertThat(expected).noneMatch(c -> c.startsWith("robert"));
    JavaRDDComparisons.assertRDDEquals(jsc().parallelize(expected), made);

    IndexStats total =
        StageTest.summedCounts(run, 2, IndexStats.ZERO, IndexStats::fromLine, IndexStats::plus);
    assertThat(total.rowsRead()).isEqualTo(4);
    assertThat(total.rowsIndexed()).isEqualTo(2);
    assertThat(total.entries()).isEqualTo(2);
    assertThat(total.rowsWithoutValue()).isEqualTo(1);
    assertThat(total.rowsRejected()).isEqualTo(1);
    assertThat(total.cells()).isEqualTo(expected.size());
    assertThat(total.addsUp()).isTrue();
  }
}
