package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Shuffle records sort exactly as HBase sorts cells, and go to the partition of their region. */
class ShuffleCellTest {
  static byte[] bytes(SplittableRandom r, int max) {
    byte[] b = new byte[r.nextInt(max + 1)];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) r.nextInt(4); // few distinct bytes: many equal prefixes and lengths
    }
    return b;
  }

  @Test
  void orderEqualsHBaseCellOrder() {
    SplittableRandom random = new SplittableRandom(11);
    List<KeyValue> cells = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      byte[] row = bytes(random, 3);
      byte[] family = random.nextBoolean() ? new byte[] {'d'} : new byte[] {'m', 'x'};
      KeyValue.Type type = random.nextInt(4) == 0 ? KeyValue.Type.Delete : KeyValue.Type.Put;
      cells.add(
          new KeyValue(row, family, bytes(random, 3), random.nextLong(5), type, bytes(random, 5)));
    }
    List<byte[]> keys = new ArrayList<>();
    for (KeyValue kv : cells) {
      keys.add(ShuffleCell.of(org.apache.hadoop.hbase.CellUtil.cloneRow(kv), kv));
    }
    cells.sort(CellComparator.getInstance());
    keys.sort(ShuffleCell.ORDER);
    for (int i = 0; i < cells.size(); i++) {
      KeyValue kv = cells.get(i);
      byte[] k = keys.get(i);
      byte[] expected = ShuffleCell.of(org.apache.hadoop.hbase.CellUtil.cloneRow(kv), kv);
      assertThat(ShuffleCell.ORDER.compare(k, expected)).as("position %d", i).isZero();
    }
  }

  @Test
  void aRecordIsTheCellMovedToItsNewRowAndReadsBackAsAKeyValue() {
    KeyValue kv =
        new KeyValue(
            Bytes.toBytes("r"), Bytes.toBytes("d"), Bytes.toBytes("q"), 5L, Bytes.toBytes("value"));
    byte[] record = ShuffleCell.of(Bytes.toBytes("new"), kv);
    assertThat(ShuffleCell.timestamp(record)).isEqualTo(5L);
    assertThat(
            Bytes.toString(
                record, ShuffleCell.qualifierOffset(record), ShuffleCell.qualifierLength(record)))
        .isEqualTo("q");
    KeyValue back = ShuffleCell.asKeyValue(record);
    assertThat(Bytes.toString(CellUtil.cloneRow(back))).isEqualTo("new");
    assertThat(Bytes.toString(CellUtil.cloneFamily(back))).isEqualTo("d");
    assertThat(Bytes.toString(CellUtil.cloneQualifier(back))).isEqualTo("q");
    assertThat(back.getTimestamp()).isEqualTo(5L);
    assertThat(back.getTypeByte()).isEqualTo(KeyValue.Type.Put.getCode());
    assertThat(Bytes.toString(CellUtil.cloneValue(back))).isEqualTo("value");
    assertThat(back.getTagsLength()).isZero();
    // A put built from its parts is the same record.
    assertThat(
            ShuffleCell.put(
                Bytes.toBytes("new"),
                Bytes.toBytes("d"),
                Bytes.toBytes("q"),
                5L,
                Bytes.toBytes("value")))
        .isEqualTo(record);
    // A delete marker keeps its type; an empty value stays empty.
    KeyValue delete =
        new KeyValue(
            Bytes.toBytes("r"), Bytes.toBytes("d"), Bytes.toBytes("q"), 7L, KeyValue.Type.Delete);
    KeyValue deleteBack = ShuffleCell.asKeyValue(ShuffleCell.of(Bytes.toBytes("n"), delete));
    assertThat(deleteBack.getTypeByte()).isEqualTo(KeyValue.Type.Delete.getCode());
    assertThat(deleteBack.getValueLength()).isZero();
  }

  @Test
  void aRowsCellsMakeOneRecordThatReadsBackCellByCell() {
    byte[] old = Bytes.toBytes("old");
    KeyValue[] row = {
      new KeyValue(old, Bytes.toBytes("a"), Bytes.toBytes("q1"), 9L, Bytes.toBytes("v1")),
      new KeyValue(old, Bytes.toBytes("a"), Bytes.toBytes("q1"), 8L, Bytes.toBytes("")),
      new KeyValue(old, Bytes.toBytes("b"), Bytes.toBytes("q"), 7L, KeyValue.Type.DeleteColumn)
    };
    byte[] record = ShuffleCell.of(Bytes.toBytes("new"), row, 0, row.length);
    assertThat(ShuffleCell.cellCount(record)).isEqualTo(3);
    assertThat(record).hasSize(sum(Bytes.toBytes("new"), row));
    int at = 0;
    for (KeyValue expected : row) {
      KeyValue back = ShuffleCell.asKeyValue(record, at);
      assertThat(Bytes.toString(CellUtil.cloneRow(back))).isEqualTo("new");
      assertThat(CellUtil.matchingColumn(back, expected)).isTrue();
      assertThat(back.getTimestamp()).isEqualTo(expected.getTimestamp());
      assertThat(back.getTypeByte()).isEqualTo(expected.getTypeByte());
      assertThat(CellUtil.matchingValue(back, expected)).isTrue();
      // Each cell is the record the single-cell form would be.
      assertThat(ShuffleCell.cellAt(record, at))
          .isEqualTo(ShuffleCell.of(Bytes.toBytes("new"), expected));
      at += ShuffleCell.cellLength(record, at);
    }
    assertThat(at).isEqualTo(record.length);
    assertThat(ShuffleCell.lastCellOffset(record))
        .isEqualTo(record.length - ShuffleCell.of(Bytes.toBytes("new"), row[2]).length);
    // Joining the single cells, in any order, gives the same record.
    List<byte[]> singles = new ArrayList<>();
    for (int i = row.length - 1; i >= 0; i--) {
      singles.add(ShuffleCell.of(Bytes.toBytes("new"), row[i]));
    }
    assertThat(ShuffleCell.join(singles)).isEqualTo(record);
  }

  private static int sum(byte[] row, KeyValue[] cells) {
    int n = 0;
    for (KeyValue c : cells) {
      n += ShuffleCell.length(row, c);
    }
    return n;
  }

  @Test
  void partitionsFollowRegionBoundariesAndSpreadRowsOverTasks() throws Exception {
    RegionPartitioner p =
        new RegionPartitioner(new byte[][] {Bytes.toBytes("g"), Bytes.toBytes("p")}, 4);
    assertThat(p.numPartitions()).isEqualTo(12);
    KeyValue kv =
        new KeyValue(Bytes.toBytes("x"), Bytes.toBytes("d"), Bytes.toBytes("q"), 1L, new byte[0]);
    for (String row : new String[] {"", "a", "f\u00ff", "g", "h", "o", "p", "zzz"}) {
      int partition = p.getPartition(ShuffleCell.of(Bytes.toBytes(row), kv));
      int region = row.compareTo("g") < 0 ? 0 : row.compareTo("p") < 0 ? 1 : 2;
      assertThat(p.regionOfPartition(partition)).as(row).isEqualTo(region);
    }
    // All cells of one row go to one task; different rows use all the region's tasks.
    java.util.Set<Integer> used = new java.util.HashSet<>();
    for (int i = 0; i < 200; i++) {
      byte[] row = Bytes.toBytes("h" + i);
      int a = p.getPartition(ShuffleCell.of(row, kv));
      int b =
          p.getPartition(
              ShuffleCell.of(
                  row, new KeyValue(row, Bytes.toBytes("m"), Bytes.toBytes("z"), 9L, new byte[0])));
      assertThat(a).isEqualTo(b);
      used.add(a);
    }
    assertThat(used).containsExactlyInAnyOrder(4, 5, 6, 7);
  }
}
