package io.rekey.index.entries;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.write.ShuffleCell;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * What an update writes for one changed row: its entries as the row is now, a marker on each entry
 * its record lists that it no longer gives, and its record when that changed.
 */
class EntryChangesTest {
  private static final long TS = 1_700_000_000_000L;
  private static final long STAMP = TS + 86_400_000L;
  private static final byte[] ROW = b("msg-1");

  private final IndexEntries entries = IndexEntriesTest.entries("m:subject");
  private final EntryChanges changes = new EntryChanges(entries);

  @Test
  void aNewValueRetiresTheEntryOfTheOldOneAndRecordsTheNewKey() throws Exception {
    byte[] old = key(row(put("sender", "alice", TS), put("subject", "hi", TS)));
    Result now = row(put("sender", "bob", TS + 5), put("subject", "hi", TS));
    EntryChanges.Change c = changes.of(ROW, now, recorded(List.of(old)), STAMP);

    assertThat(c.retired()).isEqualTo(1);
    assertThat(c.made()).hasSize(1);
    List<Cell> cells = cells(c.records());
    assertThat(cells)
        .filteredOn(x -> x.getType() == Cell.Type.DeleteFamily)
        .singleElement()
        .satisfies(
            m -> {
              assertThat(CellUtil.cloneRow(m)).isEqualTo(old);
              assertThat(m.getTimestamp()).isEqualTo(STAMP);
            });
    assertThat(recordKeys(cells)).containsExactly(c.made().get(0).key());
  }

  @Test
  void aRowThatIsGoneRetiresEveryEntryAndKeepsAnEmptyRecordNotADelete() throws Exception {
    byte[] old = key(row(put("sender", "alice", TS)));
    EntryChanges.Change c = changes.of(ROW, row(), recorded(List.of(old)), STAMP);
    assertThat(c.made()).isEmpty();
    assertThat(c.retired()).isEqualTo(1);
    List<Cell> cells = cells(c.records());
    assertThat(cells).hasSize(2);
    assertThat(recordKeys(cells)).isEmpty();
    assertThat(cells)
        .filteredOn(x -> CellUtil.matchingFamily(x, b(IndexShape.ROWS_FAMILY)))
        .singleElement()
        .satisfies(r -> assertThat(r.getType()).isEqualTo(Cell.Type.Put));
  }

  @Test
  void keysOnlyTheOlderRecordListsAreRetiredAgainButNotCountedAndAnUnchangedRecordIsKept()
      throws Exception {
    Result now = row(put("sender", "bob", TS + 5), put("subject", "hi", TS));
    byte[] current = key(now);
    byte[] before = key(row(put("sender", "alice", TS)));
    RowRecord.Versions versions =
        new RowRecord.Versions(List.of(current), List.of(before, current), true);
    EntryChanges.Change c = changes.of(ROW, now, versions, STAMP);
    assertThat(c.retired()).isZero();
    List<Cell> cells = cells(c.records());
    assertThat(cells)
        .filteredOn(x -> x.getType() == Cell.Type.DeleteFamily)
        .singleElement()
        .satisfies(m -> assertThat(CellUtil.cloneRow(m)).isEqualTo(before));
    // The entry is written again (its covered value may have changed); the record is not.
    assertThat(cells).anySatisfy(x -> assertThat(CellUtil.cloneRow(x)).isEqualTo(current));
    assertThat(cells)
        .noneSatisfy(
            x -> assertThat(CellUtil.matchingFamily(x, b(IndexShape.ROWS_FAMILY))).isTrue());
  }

  @Test
  void anEntryWrittenWithoutACoveredColumnHidesItsOlderCellsJustBelowTheRunsTime()
      throws Exception {
    Result now = row(put("sender", "alice", TS));
    byte[] key = key(now);
    EntryChanges.Change c = changes.of(ROW, now, recorded(List.of(key)), STAMP);
    List<Cell> cells = cells(c.records());
    assertThat(cells.get(0).getType()).isEqualTo(Cell.Type.DeleteFamily);
    assertThat(cells.get(0).getTimestamp()).isEqualTo(STAMP - 1);
    assertThat(CellUtil.cloneRow(cells.get(0))).isEqualTo(key);
    assertThat(c.retired()).isZero();
  }

  @Test
  void aWindowTellsTheRowOnlyWithoutMarkersAndWithEveryColumnTheEntriesNeed() {
    assertThat(entries.windowSuffices(row(put("sender", "a", TS), put("subject", "s", TS))))
        .isTrue();
    assertThat(entries.windowSuffices(row(put("sender", "a", TS)))).isFalse();
    assertThat(
            entries.windowSuffices(
                row(
                    new KeyValue(ROW, b("m"), null, TS + 1, KeyValue.Type.DeleteFamily),
                    put("sender", "a", TS),
                    put("subject", "s", TS))))
        .isFalse();
  }

  @Test
  void aRecordIsItsKeysSortedOnceEachAndReadsBack() {
    byte[] record = RowRecord.encode(List.of(b("b"), b("a"), b("b"), new byte[0]));
    assertThat(RowRecord.decode(record)).containsExactly(new byte[0], b("a"), b("b"));
    assertThat(RowRecord.same(List.of(b("a"), b("b")), List.of(b("b"), b("a")))).isTrue();
    assertThat(RowRecord.decode(RowRecord.encode(List.of()))).isEmpty();
  }

  private byte[] key(Result row) throws Exception {
    return entries.entries(row).get(0).key();
  }

  private static RowRecord.Versions recorded(List<byte[]> keys) {
    return new RowRecord.Versions(keys, keys, true);
  }

  /** The cells of the records, in HBase's order. */
  private static List<Cell> cells(List<byte[]> records) {
    List<Cell> out = new ArrayList<>();
    for (byte[] record : records) {
      for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
        out.add(ShuffleCell.asKeyValue(record, at));
      }
    }
    out.sort(CellComparator.getInstance());
    return out;
  }

  /** The keys of the one row record among the cells. */
  private static List<byte[]> recordKeys(List<Cell> cells) {
    List<byte[]> keys = null;
    for (Cell c : cells) {
      if (CellUtil.matchingFamily(c, b(IndexShape.ROWS_FAMILY))) {
        assertThat(keys).as("one record").isNull();
        assertThat(CellUtil.cloneRow(c)).isEqualTo(ROW);
        keys = RowRecord.decode(CellUtil.cloneValue(c));
      }
    }
    assertThat(keys).as("a record").isNotNull();
    return keys;
  }

  private static Cell put(String qualifier, String value, long ts) {
    return new KeyValue(ROW, b("m"), b(qualifier), ts, b(value));
  }

  private static Result row(Cell... cells) {
    Cell[] sorted = Arrays.copyOf(cells, cells.length);
    Arrays.sort(sorted, CellComparator.getInstance());
    return Result.create(sorted);
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }
}
