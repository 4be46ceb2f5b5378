package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The writer's sort: records come out in HBase's cell order with their old rows, whether they fit
 * in memory or were spilled in many runs, and the runs are gone after close.
 */
class CellSorterTest {
  @TempDir Path dir;

  /**
   * Records that stress the order: rows sharing their first eight bytes or being prefixes of one
   * another (shorter first), bytes above 0x7f, several families and qualifiers, versions and delete
   * markers at one coordinate, and old rows on some.
   */
  static List<Tuple2<byte[], byte[]>> records(int n, long seed) {
    Random random = new Random(seed);
    String[] stems = {"user0001", "user0001x", "user00011", "u", "", "\u00ff\u00fe"};
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] row =
          Bytes.add(
              stems[random.nextInt(stems.length)].getBytes(
                  java.nio.charset.StandardCharsets.ISO_8859_1),
              random.nextBoolean() ? new byte[0] : new byte[] {(byte) random.nextInt(256)});
      if (row.length == 0) {
        row = new byte[] {0};
      }
      byte[] family = Bytes.toBytes(random.nextBoolean() ? "a" : "bb");
      byte[] qualifier = Bytes.toBytes("q" + random.nextInt(5));
      long ts = random.nextInt(4) * 1000L;
      KeyValue.Type type = random.nextInt(10) == 0 ? KeyValue.Type.DeleteColumn : KeyValue.Type.Put;
      KeyValue kv =
          new KeyValue(row, family, qualifier, ts, type, Bytes.toBytes("v" + i + "-" + seed));
      byte[] old = random.nextBoolean() ? null : Bytes.toBytes("old" + i);
      out.add(new Tuple2<>(ShuffleCell.of(row, kv), old));
    }
    return out;
  }

  static List<Tuple2<byte[], byte[]>> drain(Iterator<Tuple2<byte[], byte[]>> it) {
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  static void assertSortedAndComplete(
      List<Tuple2<byte[], byte[]>> in, List<Tuple2<byte[], byte[]>> out) {
    assertThat(out).hasSameSizeAs(in);
    for (int i = 1; i < out.size(); i++) {
      Cell before = ShuffleCell.asKeyValue(out.get(i - 1)._1());
      Cell after = ShuffleCell.asKeyValue(out.get(i)._1());
      // HBase's own comparator is the judge, not ours.
      assertThat(CellComparator.getInstance().compare(before, after))
          .as("%s before %s", before, after)
          .isLessThanOrEqualTo(0);
    }
    // The same records, each with its own old row: compare as sorted strings of both parts
    // (sorted here, not by AssertJ's any-order match, which is quadratic in the records).
    List<String> expected = pairsAsText(in);
    List<String> actual = pairsAsText(out);
    expected.sort(null);
    actual.sort(null);
    assertThat(actual).isEqualTo(expected);
  }

  static List<String> pairsAsText(List<Tuple2<byte[], byte[]>> pairs) {
    List<String> out = new ArrayList<>();
    for (Tuple2<byte[], byte[]> p : pairs) {
      out.add(
          Bytes.toStringBinary(p._1())
              + " <- "
              + (p._2() == null ? "null" : Bytes.toString(p._2())));
    }
    return out;
  }

  @Test
  void recordsThatFitInMemoryComeOutInHBaseOrder() {
    List<Tuple2<byte[], byte[]>> in = records(20_000, 1);
    try (CellSorter sorter = CellSorter.withBudget(1L << 30, dir.toFile())) {
      in.forEach(t -> sorter.add(t._1(), t._2()));
      List<Tuple2<byte[], byte[]>> out = drain(sorter.sorted());
      assertThat(sorter.spills()).isZero();
      assertSortedAndComplete(in, out);
    }
  }

  @Test
  void rowsThatShareALongStartAreOrderedByWhatFollowsIt() {
    // One writer task of a salted layout: every row starts with its bucket and most with a value.
    List<Tuple2<byte[], byte[]>> in = new ArrayList<>();
    for (Tuple2<byte[], byte[]> t : records(20_000, 4)) {
      Cell c = ShuffleCell.asKeyValue(t._1());
      byte[] row = Bytes.add(Bytes.toBytes("\u0007bucket-07|user0042|"), CellUtil.cloneRow(c));
      in.add(new Tuple2<>(ShuffleCell.of(row, c), t._2()));
    }
    try (CellSorter sorter = CellSorter.withBudget(256 * 1024, dir.toFile())) {
      in.forEach(t -> sorter.add(t._1(), t._2()));
      assertSortedAndComplete(in, drain(sorter.sorted()));
      assertThat(sorter.spills()).isPositive();
    }
  }

  /**
   * What the map stages hand on: each row's cells together and in cell order, rows in no order.
   * Some rows come in two parts far apart (two source rows merged into one new row), some in
   * reverse cell order, and some cells twice.
   */
  static List<Tuple2<byte[], byte[]>> rowsInGroups(int rows, long seed) {
    Random random = new Random(seed);
    List<List<Tuple2<byte[], byte[]>>> parts = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      byte[] row = Bytes.toBytes("\u0003user00" + random.nextInt(100) + "|" + random.nextInt(1000));
      List<Tuple2<byte[], byte[]>> cells = new ArrayList<>();
      for (String family : new String[] {"a", "bb"}) {
        for (int q = 0; q < 1 + random.nextInt(4); q++) {
          for (long ts = 3; ts > 3 - 1 - random.nextInt(3); ts--) {
            KeyValue kv =
                new KeyValue(
                    row,
                    Bytes.toBytes(family),
                    Bytes.toBytes("q" + q),
                    ts * 1000,
                    KeyValue.Type.Put,
                    Bytes.toBytes("v" + r));
            cells.add(new Tuple2<>(ShuffleCell.of(row, kv), Bytes.toBytes("old" + r)));
            if (random.nextInt(50) == 0) {
              cells.add(cells.get(cells.size() - 1));
            }
          }
        }
      }
      int shape = random.nextInt(20);
      if (shape == 0) {
        java.util.Collections.reverse(cells);
      }
      if (shape == 1 && cells.size() > 1) {
        int cut = 1 + random.nextInt(cells.size() - 1);
        parts.add(new ArrayList<>(cells.subList(cut, cells.size())));
        cells = new ArrayList<>(cells.subList(0, cut));
      }
      parts.add(cells);
    }
    java.util.Collections.shuffle(parts, random);
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    parts.forEach(out::addAll);
    return out;
  }

  @Test
  void aRowsCellsArrivingTogetherAreSortedAsOneGroupAndGroupsOfOneRowMerged() {
    List<Tuple2<byte[], byte[]>> in = rowsInGroups(3_000, 5);
    try (CellSorter sorter = CellSorter.withBudget(1L << 30, dir.toFile())) {
      in.forEach(t -> sorter.add(t._1(), t._2()));
      assertSortedAndComplete(in, drain(sorter.sorted()));
    }
    try (CellSorter sorter = CellSorter.withBudget(128 * 1024, dir.toFile())) {
      in.forEach(t -> sorter.add(t._1(), t._2()));
      assertSortedAndComplete(in, drain(sorter.sorted()));
      assertThat(sorter.spills()).isGreaterThan(3);
    }
  }

  /**
   * Rows as the rekey map stage hands them on: each row's cells in one record or a few consecutive
   * ones (a wide row read in batches); some rows in two interleaving parts far apart, from
   * different old rows (two source rows merged into one).
   */
  static List<Tuple2<byte[], byte[]>> rowsAsRecords(int rows, long seed) {
    Random random = new Random(seed);
    List<List<Tuple2<byte[], byte[]>>> parts = new ArrayList<>();
    for (Tuple2<byte[], byte[]> t : groupRecords(rowsInGroups(rows, seed))) {
      byte[] record = t._1();
      List<byte[]> cells = cellsOf(record);
      if (random.nextInt(10) == 0 && cells.size() > 1) {
        // Two source rows' cells interleave in the new row: every other cell from each.
        List<byte[]> even = new ArrayList<>();
        List<byte[]> odd = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
          (i % 2 == 0 ? even : odd).add(cells.get(i));
        }
        parts.add(List.of(new Tuple2<>(joined(even), t._2())));
        parts.add(List.of(new Tuple2<>(joined(odd), Bytes.toBytes("other"))));
      } else if (random.nextBoolean() && cells.size() > 1) {
        int cut = 1 + random.nextInt(cells.size() - 1);
        parts.add(
            List.of(
                new Tuple2<>(joined(cells.subList(0, cut)), t._2()),
                new Tuple2<>(joined(cells.subList(cut, cells.size())), t._2())));
      } else {
        parts.add(List.of(t));
      }
    }
    java.util.Collections.shuffle(parts, random);
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    parts.forEach(out::addAll);
    return out;
  }

  /** Consecutive single-cell records of one row in cell order, as one record each. */
  private static List<Tuple2<byte[], byte[]>> groupRecords(List<Tuple2<byte[], byte[]>> in) {
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    List<byte[]> run = new ArrayList<>();
    byte[] runOld = null;
    for (Tuple2<byte[], byte[]> t : in) {
      if (!run.isEmpty()
          && !(ShuffleCell.sameRow(run.get(run.size() - 1), t._1())
              && ShuffleCell.compareWithinRow(run.get(run.size() - 1), t._1()) <= 0)) {
        out.add(new Tuple2<>(joined(run), runOld));
        run = new ArrayList<>();
      }
      run.add(t._1());
      runOld = t._2();
    }
    if (!run.isEmpty()) {
      out.add(new Tuple2<>(joined(run), runOld));
    }
    return out;
  }

  /** Single-cell records in order, concatenated (join would sort them; these are in order). */
  private static byte[] joined(List<byte[]> cells) {
    byte[] out = new byte[0];
    for (byte[] c : cells) {
      out = Bytes.add(out, c);
    }
    return out;
  }

  private static List<byte[]> cellsOf(byte[] record) {
    List<byte[]> out = new ArrayList<>();
    for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
      out.add(ShuffleCell.cellAt(record, at));
    }
    return out;
  }

  /** Records as single cells, each with its record's old row. */
  static List<Tuple2<byte[], byte[]>> flatten(List<Tuple2<byte[], byte[]>> records) {
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    for (Tuple2<byte[], byte[]> t : records) {
      for (byte[] cell : cellsOf(t._1())) {
        out.add(new Tuple2<>(cell, t._2()));
      }
    }
    return out;
  }

  @Test
  void recordsOfSeveralCellsComeOutInCellOrderInMemoryAndSpilled() {
    List<Tuple2<byte[], byte[]>> in = rowsAsRecords(3_000, 6);
    assertThat(in.stream().anyMatch(t -> ShuffleCell.cellCount(t._1()) > 1)).isTrue();
    try (CellSorter sorter = CellSorter.withBudget(1L << 30, dir.toFile())) {
      in.forEach(t -> sorter.add(t._1(), t._2()));
      List<Tuple2<byte[], byte[]>> out = drain(sorter.sorted());
      assertThat(sorter.spills()).isZero();
      assertSortedAndComplete(flatten(in), flatten(out));
    }
    try (CellSorter sorter = CellSorter.withBudget(128 * 1024, dir.toFile())) {
      in.forEach(t -> sorter.add(t._1(), t._2()));
      List<Tuple2<byte[], byte[]>> out = drain(sorter.sorted());
      assertThat(sorter.spills()).isGreaterThan(3);
      assertSortedAndComplete(flatten(in), flatten(out));
    }
  }

  @Test
  void aSmallBudgetSpillsSortedRunsThatAreMergedAndDeleted() {
    List<Tuple2<byte[], byte[]>> in = records(20_000, 2);
    CellSorter sorter = CellSorter.withBudget(64 * 1024, dir.toFile());
    in.forEach(t -> sorter.add(t._1(), t._2()));
    List<Tuple2<byte[], byte[]>> out = drain(sorter.sorted());
    assertThat(sorter.spills()).isGreaterThan(10);
    assertThat(dir.toFile().listFiles()).hasSize(sorter.spills());
    assertSortedAndComplete(in, out);
    sorter.close();
    assertThat(dir.toFile().listFiles()).isEmpty();
  }

  @Test
  void spillingWhenAskedKeepsEveryRecord() {
    List<Tuple2<byte[], byte[]>> in = records(5_000, 3);
    try (CellSorter sorter = CellSorter.withBudget(1L << 30, dir.toFile())) {
      for (int i = 0; i < in.size(); i++) {
        sorter.add(in.get(i)._1(), in.get(i)._2());
        // What Spark's memory manager does when another consumer needs room.
        if (i % 1_000 == 999) {
          assertThat(sorter.spillAndRelease()).isPositive();
        }
      }
      List<Tuple2<byte[], byte[]>> out = drain(sorter.sorted());
      assertThat(sorter.spills()).isEqualTo(5);
      assertSortedAndComplete(in, out);
      // Once the records are handed out, there is nothing left to spill.
      assertThat(sorter.spillAndRelease()).isZero();
    }
  }

  @Test
  void theRowPrefixOrdersAsHBaseOrdersRows() {
    byte[][] rows = {
      {},
      {0},
      {0, 0},
      {1},
      Bytes.toBytes("abc"),
      Bytes.toBytes("abc\u0000"),
      Bytes.toBytes("abd"),
      Bytes.toBytes("abcdefgh"),
      Bytes.toBytes("abcdefgh1"),
      {(byte) 0x80},
      {(byte) 0xff, (byte) 0xff}
    };
    Arrays.sort(rows, Bytes.BYTES_COMPARATOR);
    for (int i = 1; i < rows.length; i++) {
      long a =
          CellSorter.rowPrefix(
              ShuffleCell.put(rows[i - 1], new byte[] {'f'}, new byte[0], 1, new byte[0]), 0);
      long b =
          CellSorter.rowPrefix(
              ShuffleCell.put(rows[i], new byte[] {'f'}, new byte[0], 1, new byte[0]), 0);
      assertThat(Long.compareUnsigned(a, b))
          .as("%s then %s", Bytes.toStringBinary(rows[i - 1]), Bytes.toStringBinary(rows[i]))
          .isLessThanOrEqualTo(0);
    }
  }
}
