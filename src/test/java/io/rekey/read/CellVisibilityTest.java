package io.rekey.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** What a normal read returns of a raw read's cells: HBase's masking and version rules. */
class CellVisibilityTest {
  static KeyValue put(String row, String family, String qualifier, long ts) {
    return new KeyValue(
        Bytes.toBytes(row),
        Bytes.toBytes(family),
        Bytes.toBytes(qualifier),
        ts,
        KeyValue.Type.Put,
        Bytes.toBytes("v" + ts));
  }

  static KeyValue marker(String row, String family, String qualifier, long ts, KeyValue.Type t) {
    return new KeyValue(
        Bytes.toBytes(row),
        Bytes.toBytes(family),
        qualifier == null ? null : Bytes.toBytes(qualifier),
        ts,
        t);
  }

  /** The cells that count, as {@code row/family:qualifier@ts Type}, read in HBase's order. */
  static List<String> counted(Map<String, Integer> versions, Cell... cells) {
    Cell[] sorted = cells.clone();
    Arrays.sort(sorted, CellComparator.getInstance());
    CellVisibility.RawRows rows = new CellVisibility.RawRows(versions);
    List<String> out = new ArrayList<>();
    for (Cell c : sorted) {
      if (rows.counts(c)) {
        out.add(
            Bytes.toString(CellUtil.cloneRow(c))
                + "/"
                + Bytes.toString(CellUtil.cloneFamily(c))
                + ":"
                + Bytes.toString(CellUtil.cloneQualifier(c))
                + "@"
                + c.getTimestamp()
                + " "
                + c.getType());
      }
    }
    return out;
  }

  @Test
  void markersCountAndTheCellsTheyHideDoNot() {
    assertThat(
            counted(
                Map.of("d", 10, "m", 10),
                put("r1", "d", "a", 1),
                put("r1", "d", "a", 2),
                put("r1", "d", "a", 3),
                marker("r1", "d", "a", 2, KeyValue.Type.DeleteColumn),
                put("r1", "d", "b", 5),
                marker("r1", "d", "b", 5, KeyValue.Type.Delete),
                put("r1", "m", "x", 7),
                put("r1", "m", "y", 8),
                marker("r1", "m", null, 7, KeyValue.Type.DeleteFamily),
                put("r2", "d", "a", 1),
                put("r2", "d", "c", 4),
                marker("r2", "d", null, 4, KeyValue.Type.DeleteFamilyVersion)))
        .containsExactly(
            "r1/d:a@3 Put",
            "r1/d:a@2 DeleteColumn",
            "r1/d:b@5 Delete",
            "r1/m:@7 DeleteFamily",
            "r1/m:y@8 Put",
            "r2/d:@4 DeleteFamilyVersion",
            "r2/d:a@1 Put");
  }

  @Test
  void versionsPastTheFamilysLimitDoNotCountButHiddenOnesDoNotUseUpTheLimit() {
    assertThat(
            counted(
                Map.of("d", 2),
                put("r", "d", "a", 1),
                put("r", "d", "a", 2),
                put("r", "d", "a", 3),
                put("r", "d", "a", 4),
                marker("r", "d", "a", 4, KeyValue.Type.Delete),
                put("r", "d", "b", 9)))
        .containsExactly("r/d:a@4 Delete", "r/d:a@3 Put", "r/d:a@2 Put", "r/d:b@9 Put");
  }
}
