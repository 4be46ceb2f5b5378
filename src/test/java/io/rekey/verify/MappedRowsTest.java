package io.rekey.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.KeyMapping;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Which source rows a comparison counts as unmapped: rows a read returns cells of whose key the
 * mapping rejects, once each however many batches they come in; not rows of markers and hidden
 * cells only.
 */
class MappedRowsTest {
  private static final KeyMapping BOUND =
      KeyMapping.parse("text: ts:long + '_' + msgid ; sender = m:sender", "sender + '_' + msgid");

  private static Cell cell(String row, String qualifier, long ts, KeyValue.Type type, String v) {
    return new KeyValue(
        Bytes.toBytes(row),
        Bytes.toBytes("m"),
        qualifier == null ? null : Bytes.toBytes(qualifier),
        ts,
        type,
        v == null ? null : Bytes.toBytes(v));
  }

  private static Result row(Cell... cells) {
    Cell[] sorted = cells.clone();
    Arrays.sort(sorted, CellComparator.getInstance());
    return Result.create(sorted);
  }

  private static Counted raw() {
    Map<String, Integer> versions = new HashMap<>(Map.of("m", 3));
    return new Counted(new HashMap<>(versions), false, KeySet.NONE);
  }

  @Test
  void aRowThatLostItsBoundColumnButHoldsCellsIsUnmappedWithTheLayoutsReason() {
    MappedRows rows = new MappedRows(BOUND, raw());
    Result lost =
        row(
            cell("5_m1", "sender", 5, KeyValue.Type.Put, "ann"),
            cell("5_m1", "sender", 9, KeyValue.Type.DeleteColumn, null),
            cell("5_m1", "body", 5, KeyValue.Type.Put, "hi"));
    assertThat(rows.map(lost)).isNull();
    Result fine =
        row(
            cell("6_m2", "sender", 6, KeyValue.Type.Put, "bob"),
            cell("6_m2", "body", 6, KeyValue.Type.Put, "yo"));
    assertThat(Bytes.toString(rows.map(fine).key())).isEqualTo("bob_m2");
    assertThat(rows.unmapped().rows()).isEqualTo(1);
    assertThat(rows.unmapped().byReason()).containsOnlyKeys("FIELD_MISSING");
    assertThat(rows.unmapped().examples())
        .singleElement()
        .asString()
        .startsWith("5_m1 FIELD_MISSING");
  }

  @Test
  void aDeletedRowIsNotUnmappedAndARowInTwoBatchesCountsOnce() {
    MappedRows rows = new MappedRows(BOUND, raw());
    // Deleted whole: markers and hidden cells only, nothing a read returns.
    assertThat(
            rows.map(
                row(
                    cell("7_m3", null, 9, KeyValue.Type.DeleteFamily, null),
                    cell("7_m3", "sender", 7, KeyValue.Type.Put, "cat"),
                    cell("7_m3", "body", 7, KeyValue.Type.Put, "x"))))
        .isNull();
    assertThat(rows.unmapped()).isEqualTo(UnmappedRows.NONE);

    MappedRows plain = new MappedRows(BOUND, Counted.everyCell());
    assertThat(plain.map(row(cell("8_m4", "body", 8, KeyValue.Type.Put, "a")))).isNull();
    assertThat(plain.map(row(cell("8_m4", "note", 8, KeyValue.Type.Put, "b")))).isNull();
    assertThat(plain.map(row(cell("9_m5", "body", 9, KeyValue.Type.Put, "c")))).isNull();
    assertThat(plain.unmapped().rows()).isEqualTo(2);
  }

  @Test
  void aVerdictStandsOnlyWithNoUnmappedRowOrExactlyTheCountAcknowledged() {
    UnmappedRows none = UnmappedRows.NONE;
    UnmappedRows two =
        UnmappedRows.of("a", "FIELD_MISSING", "no m:sender")
            .plus(UnmappedRows.of("b", "SEPARATOR_IN_VALUE", "'x_y' holds '_'"));
    assertThat(none.acknowledged(null)).isTrue();
    assertThat(none.acknowledged(0L)).isTrue();
    assertThat(none.acknowledged(1L)).isFalse();
    assertThat(two.acknowledged(null)).isFalse();
    assertThat(two.acknowledged(1L)).isFalse();
    assertThat(two.acknowledged(2L)).isTrue();
    assertThat(two.line())
        .isEqualTo("2 source rows cannot be mapped (FIELD_MISSING 1, SEPARATOR_IN_VALUE 1)");
    assertThat(two.refusal(null))
        .contains("(first: a FIELD_MISSING: no m:sender)", "--accept-unmapped 2");
    assertThat(two.refusal(3L))
        .startsWith("--accept-unmapped 3 does not acknowledge what was found: 2 source rows");
  }
}
