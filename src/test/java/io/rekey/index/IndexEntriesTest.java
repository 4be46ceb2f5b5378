package io.rekey.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.options.OptionValues;
import io.rekey.write.ShuffleCell;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * An entry's record, written straight from the row's cells, holds exactly the cells {@link
 * IndexEntries#cells} lists, each put at the entry's time, in HBase's order within the entry's row.
 */
class IndexEntriesTest {
  private static final long TS = 1_700_000_000_000L;
  private static final long STAMP = TS + 86_400_000L;

  @Test
  void aRecordHoldsTheMarkerAndTheCoveredColumnsTheRowHasInHBaseOrder() throws Exception {
    // "A:x" becomes the index qualifier "A:x", which sorts before the marker "_"; "m:subject"
    // after it: the record must still come out in qualifier order.
    IndexEntries entries = entries("A:x", "m:subject", "m:body");
    Result full =
        row(
            "msg-1",
            cell("A", "x", "ax"),
            cell("m", "body", "hi"),
            sender("alice"),
            cell("m", "subject", "greetings"));
    Result partial = row("msg-2", sender("bob"), cell("m", "subject", "re: greetings"));
    Result senderOnly = row("msg-3", sender("carol"));
    for (Result r : List.of(full, partial, senderOnly)) {
      IndexEntries.Entry entry = entries.entries(r).get(0);
      byte[] record = entries.record(entry, r, STAMP);
      assertThat(record).isEqualTo(joined(entries, entry, r));
      List<Cell> cells = cellsOf(record);
      assertThat(cells).hasSize(entries.cells(r).size());
      for (int i = 1; i < cells.size(); i++) {
        assertThat(CellComparator.getInstance().compare(cells.get(i - 1), cells.get(i)))
            .isNegative();
      }
      for (Cell c : cells) {
        assertThat(Bytes.toString(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength()))
            .isEqualTo("i");
        // The run's time, not the indexed cell's: see IndexEntries.
        assertThat(c.getTimestamp()).isEqualTo(STAMP);
        assertThat(c.getRowArray().length > 0 && Bytes.equals(entry.key(), cloneRow(c))).isTrue();
      }
    }
    assertThat(entries.cells(full)).hasSize(4);
    assertThat(entries.cells(senderOnly)).hasSize(1);
  }

  @Test
  void theNewestVersionOfACoveredColumnIsTheOneCovered() throws Exception {
    IndexEntries entries = entries("m:subject");
    Result r =
        row(
            "msg-1",
            sender("alice"),
            new KeyValue(b("msg-1"), b("m"), b("subject"), TS + 5, b("newer")),
            new KeyValue(b("msg-1"), b("m"), b("subject"), TS - 5, b("older")));
    IndexEntries.Entry entry = entries.entries(r).get(0);
    List<Cell> cells = cellsOf(entries.record(entry, r, STAMP));
    assertThat(cells).hasSize(2);
    Cell subject = cells.get(1);
    assertThat(
            Bytes.toString(
                subject.getValueArray(), subject.getValueOffset(), subject.getValueLength()))
        .isEqualTo("newer");
  }

  /** What the entry stage used to make: a record per cell, joined. */
  private static byte[] joined(IndexEntries entries, IndexEntries.Entry entry, Result r) {
    List<byte[]> one = new ArrayList<>();
    for (IndexEntries.EntryCell c : entries.cells(r)) {
      one.add(ShuffleCell.put(entry.key(), entries.family(), c.qualifier(), STAMP, c.value()));
    }
    return ShuffleCell.join(one);
  }

  private static List<Cell> cellsOf(byte[] record) {
    List<Cell> out = new ArrayList<>();
    for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
      out.add(ShuffleCell.asKeyValue(record, at));
    }
    return out;
  }

  private static byte[] cloneRow(Cell c) {
    return java.util.Arrays.copyOfRange(
        c.getRowArray(), c.getRowOffset(), c.getRowOffset() + c.getRowLength());
  }

  /** The entries of an index on m:sender covering {@code covered}, family i. */
  static IndexEntries entries(String... covered) {
    OptionValues v =
        OptionValues.empty()
            .with("source", "t")
            .with("column", "m:sender")
            .with("index-table", "t_ix")
            .with("index-family", "i");
    for (String c : covered) {
      v = v.with("covered", c);
    }
    return new IndexEntries(IndexDefinition.from(v.validate(IndexDefinition.declaredWithFile())));
  }

  private static Cell[] sender(String who) {
    return new Cell[] {cell("m", "sender", who)};
  }

  private static Cell cell(String family, String qualifier, String value) {
    return new KeyValue(b("?"), b(family), b(qualifier), TS, b(value));
  }

  /** A row of the given cells (moved to {@code key}), sorted as a scan gives them. */
  private static Result row(String key, Object... cells) {
    List<Cell> all = new ArrayList<>();
    for (Object o : cells) {
      for (Cell c : o instanceof Cell[] a ? a : new Cell[] {(Cell) o}) {
        all.add(
            new KeyValue(
                b(key),
                java.util.Arrays.copyOfRange(
                    c.getFamilyArray(),
                    c.getFamilyOffset(),
                    c.getFamilyOffset() + c.getFamilyLength()),
                java.util.Arrays.copyOfRange(
                    c.getQualifierArray(),
                    c.getQualifierOffset(),
                    c.getQualifierOffset() + c.getQualifierLength()),
                c.getTimestamp(),
                java.util.Arrays.copyOfRange(
                    c.getValueArray(),
                    c.getValueOffset(),
                    c.getValueOffset() + c.getValueLength())));
      }
    }
    all.sort(CellComparator.getInstance());
    return Result.create(all);
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }
}
