package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rekey.sketch.Weighted;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class TableProfileTest {
  private static final byte[] M = Bytes.toBytes("m");

  @Test
  void theRowHashSpreadsKeysThatDifferLittleEvenlyOverItsBits() {
    // Keys as time-first tables have them: long shared prefixes, a few changing bytes, any length.
    int n = 200_000;
    long chosen = 0;
    int[] ones = new int[64];
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < n; i++) {
      byte[] key = Bytes.toBytes((1_767_225_600_000L + i) + "_user" + (i % 97) + "_".repeat(i % 9));
      long h = RowHash.of(key);
      seen.add(h);
      if ((h >>> 11) < 0.1 * (1L << 53)) {
        chosen++;
      }
      for (int b = 0; b < 64; b++) {
        ones[b] += (int) (h >>> b & 1);
      }
    }
    assertThat(seen).hasSize(n);
    // A tenth chosen by --sample-fraction 0.1: within 1.5% of n/10 (about 7 standard deviations).
    assertThat((double) chosen).isCloseTo(n / 10.0, within(n * 0.0015));
    for (int b = 0; b < 64; b++) {
      assertThat((double) ones[b]).as("bit %d", b).isCloseTo(n / 2.0, within(n * 0.01));
    }
  }

  @Test
  void countsRowsCellsVersionsFamiliesAndDeleteMarkersExactly() {
    TableProfile p =
        new TableProfile(Synthetic.settings(List.of(new byte[0], Bytes.toBytes("r5")), null));
    byte[] r1 = Bytes.toBytes("r1");
    List<Cell> cells = new ArrayList<>();
    cells.add(new KeyValue(r1, M, Bytes.toBytes("a"), 30, new byte[5]));
    cells.add(new KeyValue(r1, M, Bytes.toBytes("a"), 20, new byte[5]));
    cells.add(new KeyValue(r1, M, Bytes.toBytes("a"), 10, new byte[5]));
    cells.add(new KeyValue(r1, M, Bytes.toBytes("b"), 10, KeyValue.Type.DeleteColumn));
    cells.add(new KeyValue(r1, Bytes.toBytes("x"), Bytes.toBytes("c"), 10, new byte[7]));
    p.add(r1, cells);
    byte[] r9 = Bytes.toBytes("r9");
    p.add(r9, Synthetic.row(r9, 40, 4, 1));
    p.finish();

    assertThat(p.rows).isEqualTo(2);
    assertThat(p.cells).isEqualTo(9);
    assertThat(p.deleteMarkers).isEqualTo(1);
    assertThat(p.families.get("m").cells).isEqualTo(8);
    assertThat(p.families.get("m").maxVersions).isEqualTo(3);
    assertThat(p.families.get("m").qualifiers.distinctQualifiers()).isEqualTo(5);
    assertThat(p.families.get("x").cells).isEqualTo(1);
    assertThat(p.regions.get(0).rows).isEqualTo(1);
    assertThat(p.regions.get(0).cells).isEqualTo(5);
    assertThat(p.regions.get(1).cells).isEqualTo(4);
    assertThat(p.versionsPerColumn.max()).isEqualTo(3);
    assertThat(p.columnsPerRow.max()).isEqualTo(4);
    assertThat(p.prefixes.firstByteCells['r']).isEqualTo(9);
    assertThat(p.families.get("m").qualifiers.topByCells(1).get(0)).isEqualTo(new Weighted("a", 3));
  }

  @Test
  void aRowReadInBatchesCountsOnce() {
    TableProfile p = new TableProfile(Synthetic.settings(List.of(new byte[0]), null));
    byte[] key = Bytes.toBytes("wide");
    List<Cell> all = Synthetic.row(key, 5, 10, 3);
    p.add(key, all.subList(0, 4));
    p.add(key, all.subList(4, 10));
    p.finish();
    assertThat(p.rows).isEqualTo(1);
    assertThat(p.cells).isEqualTo(10);
    assertThat(p.widestRows.heaviestFirst().get(0).columns()).isEqualTo(10);
  }

  @Test
  void thresholdsCountWideRowsHugeCellsAndLongKeys() {
    ProfileSettings settings =
        new ProfileSettings(List.of(new byte[0]), null, 100, 100, 3, 50, 5, 10);
    TableProfile p = new TableProfile(settings);
    byte[] wide = Bytes.toBytes("a-wide-row-key");
    p.add(wide, Synthetic.row(wide, 1, 6, 100));
    byte[] small = Bytes.toBytes("b");
    p.add(small, Synthetic.row(small, 1, 1, 10));
    p.finish();
    assertThat(p.wideRows).isEqualTo(1);
    assertThat(p.hugeCells).isEqualTo(6);
    assertThat(p.longKeyRows).isEqualTo(1);
    assertThat(p.largestCells.heaviestFirst()).hasSize(3);
    assertThat(p.keyBytesStored).isEqualTo(14L * 6 + 1);
  }

  @Test
  void theFirstFieldsDistinctValuesAndMismatchesAreCounted() {
    TableProfile p =
        new TableProfile(Synthetic.settings(List.of(new byte[0]), "text: user + '_' + ts:long"));
    for (int i = 0; i < 30; i++) {
      byte[] key = Bytes.toBytes((i < 20 ? "hot" : "user" + i) + "_" + (1000 + i));
      p.add(key, Synthetic.row(key, i, 2, 1));
    }
    byte[] bad = Bytes.toBytes("nounderscore");
    // Tasks read only up to the first field: a key with a bad tail is not counted here.
    p.add(bad, Synthetic.row(bad, 1, 1, 1));
    p.finish();
    assertThat(p.firstFieldDistinct.estimate()).isEqualTo(11);
    assertThat(p.sourceKeyMismatches).isEqualTo(1);
    assertThat(p.mismatchExamples.get(0)).startsWith("nounderscore");
  }

  @Test
  void profilesOfPartitionsMergeIntoTheProfileOfTheWhole() {
    TableProfile whole = Synthetic.timeFirst(3000, null);
    TableProfile first = new TableProfile(whole.settings());
    TableProfile second = new TableProfile(whole.settings());
    for (int i = 0; i < 3000; i++) {
      byte[] key = Synthetic.timeFirstKey(i);
      (i < 1700 ? first : second).add(key, Synthetic.row(key, Synthetic.T0 + i * 1000L, 3, 20));
    }
    // As the job does: each part travels as bytes and is merged into the driver's profile.
    TableProfile merged =
        new TableProfile(whole.settings())
            .merge(TableProfile.fromBytes(first.finish().toBytes()))
            .merge(TableProfile.fromBytes(second.finish().toBytes()));
    assertThat(merged.rows).isEqualTo(whole.rows);
    assertThat(merged.cells).isEqualTo(whole.cells);
    assertThat(merged.bytes).isEqualTo(whole.bytes);
    assertThat(merged.keyBytesStored).isEqualTo(whole.keyBytesStored);
    // Bottom-k samples merge exactly: the same rows as one pass would have kept.
    assertThat(keys(merged.rowSample.items())).isEqualTo(keys(whole.rowSample.items()));
    assertThat(merged.cellSample.size()).isEqualTo(whole.cellSample.size());
    assertThat(merged.keyLength.summary(20)).isEqualTo(whole.keyLength.summary(20));
    // Write times are sketched from a uniform one-in-8 sample of the cells.
    assertThat((double) merged.regions.get(0).timestamps.n())
        .isCloseTo(9000 / TableProfile.TIME_SAMPLING, within(9000 * 0.03));
    assertThat(merged.regions.get(0).oldestTs).isEqualTo(Synthetic.T0);
    assertThat(merged.regions.get(0).newestTs).isEqualTo(Synthetic.T0 + 2999 * 1000L);
    assertThat(merged.regions.get(0).timestamps.quantile(0.5))
        .isCloseTo(Synthetic.T0 + 1500 * 1000L, within(3000 * 1000L * 0.02));
  }

  @Test
  void aProfileStaysTheSameSizeWhenTheTableDoubles() {
    int small =
        TableProfile.fromBytes(Synthetic.timeFirst(40_000, null).toBytes()).toBytes().length;
    int large = Synthetic.timeFirst(80_000, null).toBytes().length;
    // Samples are full at both sizes; sketches grow only logarithmically.
    assertThat((double) large / small).isLessThan(1.1);
  }

  @Test
  void qualifierCountsTurnIntoSketchesPastTheExactLimitAndStayClose() {
    TableProfile p = new TableProfile(Synthetic.settings(List.of(new byte[0]), null));
    byte[] key = Bytes.toBytes("k");
    List<Cell> cells = new ArrayList<>();
    int distinct = QualifierCounter.EXACT_LIMIT * 3;
    for (int q = 0; q < distinct; q++) {
      cells.add(new KeyValue(key, M, Bytes.toBytes("q" + q), 1, new byte[1]));
    }
    p.add(key, cells);
    p.finish();
    QualifierCounter counter = TableProfile.fromBytes(p.toBytes()).families.get("m").qualifiers;
    assertThat(counter.isExact()).isFalse();
    assertThat((double) counter.distinctQualifiers()).isCloseTo(distinct, within(distinct * 0.05));
  }

  private static List<String> keys(List<Samples.Row> rows) {
    return rows.stream().map(r -> Bytes.toStringBinary(r.key())).sorted().toList();
  }
}
