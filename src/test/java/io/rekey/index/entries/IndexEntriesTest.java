package io.rekey.index.entries;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.index.IndexDefinition;
import io.rekey.options.OptionValues;
import io.rekey.write.ShuffleCell;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
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

  @Test
  void aWindowTellsTheRowOnlyWithNoDeleteAndEveryColumnTheEntryNeeds() {
    IndexEntries entries = entries("m:subject");
    Result whole = row("msg-1", sender("alice"), cell("m", "subject", "hi"));
    Result noSubject = row("msg-1", sender("alice"));
    Result senderDeleted =
        Result.create(
            List.of(
                new KeyValue(b("msg-1"), b("m"), b("sender"), TS, KeyValue.Type.Delete),
                new KeyValue(b("msg-1"), b("m"), b("subject"), TS, b("hi"))));
    Result subjectOnly = row("msg-1", cell("m", "subject", "hi"));
    assertThat(entries.windowSuffices(whole)).isTrue();
    assertThat(entries.windowSuffices(noSubject)).isFalse();
    assertThat(entries.missingCovered(noSubject))
        .extracting(c -> c.family() + ":" + c.qualifier())
        .containsExactly("m:subject");
    assertThat(entries.windowSuffices(senderDeleted)).isFalse();
    assertThat(entries.windowSuffices(subjectOnly)).isFalse();
    assertThat(entries.hasIndexedColumn(subjectOnly)).isFalse();
    assertThat(entries.windowSuffices(Result.EMPTY_RESULT)).isFalse();
    // One entry per version cannot be told from the newest cells of a window.
    assertThat(entriesOf(v -> v.with("all-versions", "true")).windowSuffices(whole)).isFalse();
  }

  @Test
  void aKeyBoundToAColumnNeedsThatColumnInTheWindow() {
    IndexEntries entries =
        entriesOf(
            v ->
                v.with("source-key", "text: sent:long + '_' + msgid ; thread = m:thread")
                    .with("index-key", "value + thread + reverse_ts(ts) + key"));
    Result withThread =
        row(
            "1700000000000_m1",
            sender("alice"),
            cell("m", "subject", "hi"),
            cell("m", "thread", "t1"));
    Result withoutThread = row("1700000000000_m1", sender("alice"), cell("m", "subject", "hi"));
    assertThat(entries.missesBoundColumn(withThread)).isFalse();
    assertThat(entries.windowSuffices(withThread)).isTrue();
    assertThat(entries.missesBoundColumn(withoutThread)).isTrue();
    assertThat(entries.windowSuffices(withoutThread)).isFalse();
  }

  @Test
  void anUpdatesScanReadsRawEveryVersionOfTheIndexColumnsAndTheirFamilyMarkersOnly()
      throws Exception {
    Scan scan = entries("m:subject", "x:y").windowScan(new Scan());
    assertThat(scan.isRaw()).isTrue();
    assertThat(scan.getMaxVersions()).isEqualTo(Integer.MAX_VALUE);
    assertThat(scan.getFamilyMap().keySet()).extracting(Bytes::toString).containsExactly("m", "x");
    Filter filter = scan.getFilter();
    assertThat(passes(filter, cell("m", "sender", "a"))).isTrue();
    assertThat(passes(filter, cell("m", "subject", "a"))).isTrue();
    assertThat(passes(filter, cell("x", "y", "a"))).isTrue();
    assertThat(passes(filter, new KeyValue(b("?"), b("m"), null, TS, KeyValue.Type.DeleteFamily)))
        .isTrue();
    assertThat(passes(filter, cell("m", "body", "a"))).isFalse();
    // An index on a key field: any cell makes its row exist, so the whole row is read.
    Scan byField = entriesOnField().windowScan(new Scan());
    assertThat(byField.isRaw()).isTrue();
    assertThat(byField.getFilter()).isNull();
  }

  @Test
  void aBuildsScanKeepsEveryRowAndOnlyTheIndexColumnsNewestUnlessEveryVersionIsIndexed()
      throws Exception {
    Scan scan = entries("m:subject").restrictCountingEveryRow(new Scan());
    assertThat(scan.getMaxVersions()).isEqualTo(1);
    Filter filter = scan.getFilter();
    // A row's first cell passes whatever its column, so a row without the index's columns counts.
    assertThat(passes(filter, cell("m", "body", "a"))).isTrue();
    assertThat(passes(filter, cell("m", "subject", "a"))).isTrue();
    assertThat(entriesOf(v -> v.with("all-versions", "true")).restrictCountingEveryRow(new Scan()))
        .satisfies(s -> assertThat(s.getMaxVersions()).isEqualTo(Integer.MAX_VALUE));
    assertThat(entriesOnField().restrictCountingEveryRow(new Scan()).getFilter()).isNull();
    assertThat(entries().current(b("msg-1")).getFilter()).isNotNull();
    assertThat(entriesOnField().current(b("1700000000000_m1")).getFilter())
        .isInstanceOf(FirstKeyOnlyFilter.class);
  }

  @Test
  void everyVersionOfTheIndexedCellIsAnEntryWhenAskedAndAKeyFieldIndexesTheRowItself()
      throws Exception {
    Result r =
        row(
            "msg-1",
            new KeyValue(b("?"), b("m"), b("sender"), TS + 5, b("bob")),
            new KeyValue(b("?"), b("m"), b("sender"), TS, b("alice")));
    assertThat(entries().entries(r))
        .hasSize(1)
        .first()
        .satisfies(e -> assertThat(e.ts()).isEqualTo(TS + 5));
    assertThat(entriesOf(v -> v.with("all-versions", "true")).entries(r))
        .extracting(IndexEntries.Entry::ts)
        .containsExactly(TS + 5, TS);
    assertThat(entries().entries(row("msg-2", cell("m", "body", "x")))).isEmpty();

    IndexEntries byField = entriesOnField();
    assertThat(byField.entries(row("1700000000000_m1", cell("m", "body", "x")))).hasSize(1);
    assertThat(byField.entries(Result.EMPTY_RESULT)).isEmpty();
  }

  @Test
  void putsCarryTheMarkerAndTheCoveredColumnsAtTheRunsTime() throws Exception {
    IndexEntries entries = entries("m:subject");
    Result r = row("msg-1", sender("alice"), cell("m", "subject", "hi"));
    List<Put> puts = entries.puts(r, STAMP);
    assertThat(puts).hasSize(1);
    Put put = puts.get(0);
    assertThat(put.getRow()).isEqualTo(entries.entries(r).get(0).key());
    assertThat(put.getFamilyCellMap().get(b("i")))
        .hasSize(2)
        .allSatisfy(c -> assertThat(c.getTimestamp()).isEqualTo(STAMP));
    assertThat(entries.puts(row("msg-2", cell("m", "body", "x")), STAMP)).isEmpty();
  }

  private static boolean passes(Filter filter, Cell cell) throws java.io.IOException {
    filter.reset();
    return filter.filterCell(cell) == Filter.ReturnCode.INCLUDE
        || filter.filterCell(cell) == Filter.ReturnCode.INCLUDE_AND_NEXT_COL;
  }

  /** The entries of an index on the source key's field {@code msgid}. */
  private static IndexEntries entriesOnField() {
    OptionValues v =
        OptionValues.empty()
            .with("source", "t")
            .with("source-key", "text: sent:long + '_' + msgid")
            .with("field", "msgid")
            .with("index-table", "t_ix");
    return IndexDefinition.from(v.validate(IndexDefinition.declaredWithFile())).entries();
  }

  private static IndexEntries entriesOf(java.util.function.UnaryOperator<OptionValues> more) {
    OptionValues v =
        OptionValues.empty()
            .with("source", "t")
            .with("column", "m:sender")
            .with("index-table", "t_ix")
            .with("index-family", "i")
            .with("covered", "m:subject");
    return IndexDefinition.from(more.apply(v).validate(IndexDefinition.declaredWithFile()))
        .entries();
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
    return IndexDefinition.from(v.validate(IndexDefinition.declaredWithFile())).entries();
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
