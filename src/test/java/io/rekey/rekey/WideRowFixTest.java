package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.read.CellVisibility;
import io.rekey.verify.Counted;
import io.rekey.verify.KeySet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A wide row's fix, worked out column by column from cell streams in small parts, is the fix of the
 * whole row held at once: random rows of two families, Puts and every kind of marker, two source
 * rows mapping to one key, raw and normal reads, families with and without a version limit.
 */
class WideRowFixTest {
  private static final byte[] KEY = Bytes.toBytes("new-key");
  private static final String[] FAMILIES = {"a", "b"};
  private static final String[] QUALIFIERS = {"", "q1", "q2", "q3", "q4"};

  @Property(tries = 400)
  void thePartsMakeTheFixOfTheWholeRow(
      @ForAll long seed,
      @ForAll boolean rawSource,
      @ForAll boolean rawTarget,
      @ForAll @IntRange(min = 1, max = 7) int piece) {
    Random random = new Random(seed);
    HashMap<String, Integer> versions = new HashMap<>();
    versions.put("a", 1 + random.nextInt(3));
    versions.put("b", Integer.MAX_VALUE);
    Counted sourceCounted =
        rawSource ? new Counted(versions, false, KeySet.NONE) : Counted.everyCell();
    Counted targetCounted =
        rawTarget ? new Counted(versions, false, KeySet.NONE) : Counted.everyCell();
    List<List<Cell>> sources = new ArrayList<>();
    for (String row : List.of("s1", "s2")) {
      List<Cell> cells = row(random, row, rawSource);
      sources.add(rawSource ? cells : normalRead(cells, versions));
    }
    List<Cell> raw = row(random, "new-key", true);
    List<Cell> shown = rawTarget ? raw : normalRead(raw, versions);
    Set<String> newVersionBehavior = random.nextBoolean() ? Set.of("b") : Set.of();

    List<Cell[]> sourceRows = new ArrayList<>();
    for (List<Cell> s : sources) {
      sourceRows.add(s.toArray(new Cell[0]));
    }
    RowFix whole =
        RowFix.ofReads(
            KEY,
            sourceRows,
            sourceCounted,
            shown.toArray(new Cell[0]),
            raw.toArray(new Cell[0]),
            targetCounted,
            newVersionBehavior);

    List<Iterator<Cell>> streams = new ArrayList<>();
    for (List<Cell> s : sources) {
      streams.add(s.iterator());
    }
    WideRowFix parts =
        new WideRowFix(
            KEY,
            streams,
            sourceCounted,
            rawTarget ? null : shown.iterator(),
            raw.iterator(),
            targetCounted,
            newVersionBehavior,
            piece);
    List<Cell> puts = new ArrayList<>();
    List<Cell> deletes = new ArrayList<>();
    List<Cell> masked = new ArrayList<>();
    while (parts.hasNext()) {
      RowFix part = parts.next();
      assertThat(part.none()).isFalse();
      puts.addAll(part.puts());
      deletes.addAll(part.deletes());
      masked.addAll(part.masked());
    }
    assertThat(RowFixTest.lines(puts)).isEqualTo(RowFixTest.lines(whole.puts()));
    assertThat(RowFixTest.lines(deletes)).isEqualTo(RowFixTest.lines(whole.deletes()));
    assertThat(RowFixTest.lines(masked)).isEqualTo(RowFixTest.lines(whole.masked()));
  }

  /**
   * A random row as a raw read returns it (markers only when {@code markers}), in HBase's order.
   */
  private static List<Cell> row(Random random, String row, boolean markers) {
    List<Cell> cells = new ArrayList<>();
    int n = random.nextInt(25);
    for (int i = 0; i < n; i++) {
      byte[] family = Bytes.toBytes(FAMILIES[random.nextInt(FAMILIES.length)]);
      byte[] qualifier = Bytes.toBytes(QUALIFIERS[random.nextInt(QUALIFIERS.length)]);
      long ts = 1 + random.nextInt(5);
      KeyValue.Type type = KeyValue.Type.Put;
      if (markers && random.nextInt(4) == 0) {
        type =
            List.of(
                    KeyValue.Type.Delete,
                    KeyValue.Type.DeleteColumn,
                    KeyValue.Type.DeleteFamily,
                    KeyValue.Type.DeleteFamilyVersion)
                .get(random.nextInt(4));
        if (type == KeyValue.Type.DeleteFamily || type == KeyValue.Type.DeleteFamilyVersion) {
          qualifier = new byte[0];
        }
      }
      byte[] value = type == KeyValue.Type.Put ? Bytes.toBytes("v" + random.nextInt(3)) : null;
      Cell c = new KeyValue(Bytes.toBytes(row), family, qualifier, ts, type, value);
      if (cells.stream().noneMatch(o -> CellComparator.getInstance().compare(o, c) == 0)) {
        cells.add(c);
      }
    }
    cells.sort(CellComparator.getInstance());
    return cells;
  }

  /** What a normal read returns of a raw row. */
  private static List<Cell> normalRead(List<Cell> raw, HashMap<String, Integer> versions) {
    CellVisibility.RawRows reads = new CellVisibility.RawRows(versions);
    List<Cell> out = new ArrayList<>();
    for (Cell c : raw) {
      if (reads.counts(c) && !CellUtil.isDelete(c)) {
        out.add(c);
      }
    }
    return out;
  }
}
