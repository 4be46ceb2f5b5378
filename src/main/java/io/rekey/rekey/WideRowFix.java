package io.rekey.rekey;

import io.rekey.verify.Counted;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;

/**
 * The {@link RowFix} of one target row too wide to hold, worked out column by column as the rows
 * are read a piece at a time, and handed out in parts of about {@code piece} cells: the source rows
 * that map to the key, the target row as a read shows it and its delete markers are walked together
 * in column order, each column's versions fixed as {@link RowFix#of} fixes a whole row. That is the
 * same fix, since a cell's fix depends only on its column's versions and the markers of its column
 * and family, which a raw read returns first in each. Plain Java over cell iterators.
 */
final class WideRowFix implements Iterator<RowFix> {
  private static final CellComparator ORDER = CellComparator.getInstance();

  private final byte[] key;
  private final List<Side> sources = new ArrayList<>();
  private final Side shown;
  private final Side raw;
  private final Counted.Filter shownCounts;
  private final Set<String> newVersionBehavior;
  private final int piece;
  private final List<Cell> familyMarkers = new ArrayList<>();
  private Cell family;
  private RowFix ready;

  /**
   * @param sources the cells of each source row that maps to {@code key}, as read for {@code
   *     sourceCounted}
   * @param shown the target row as read for {@code targetCounted}, or null when that read is raw
   *     (then it is {@code raw})
   * @param raw the target row read raw
   */
  WideRowFix(
      byte[] key,
      List<Iterator<Cell>> sources,
      Counted sourceCounted,
      Iterator<Cell> shown,
      Iterator<Cell> raw,
      Counted targetCounted,
      Set<String> newVersionBehavior,
      int piece) {
    this.key = key;
    for (Iterator<Cell> s : sources) {
      this.sources.add(new Side(s, sourceCounted.filter()));
    }
    this.raw = new Side(raw, null);
    this.shown = shown == null ? null : new Side(shown, targetCounted.filter());
    this.shownCounts = shown == null ? targetCounted.filter() : null;
    this.newVersionBehavior = Set.copyOf(newVersionBehavior);
    this.piece = piece;
  }

  @Override
  public boolean hasNext() {
    if (ready != null) {
      return true;
    }
    RowFix part = new RowFix(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    int cells = 0;
    Cell column;
    while (cells < piece && (column = column()) != null) {
      RowFix fix = fixColumn(column);
      part.puts().addAll(fix.puts());
      part.deletes().addAll(fix.deletes());
      part.masked().addAll(fix.masked());
      cells += fix.puts().size() + fix.deletes().size() + fix.masked().size();
    }
    ready = cells == 0 ? null : part;
    return ready != null;
  }

  @Override
  public RowFix next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    RowFix out = ready;
    ready = null;
    return out;
  }

  /** The first column any side still has, as one of its cells; null when all are read. */
  private Cell column() {
    Cell first = null;
    for (Side s : sides()) {
      Cell c = s.peek();
      if (c != null && (first == null || compareColumns(c, first) < 0)) {
        first = c;
      }
    }
    return first;
  }

  private RowFix fixColumn(Cell column) {
    if (family == null || !CellUtil.matchingFamily(column, family)) {
      familyMarkers.clear();
      family = column;
    }
    List<Cell> wanted = new ArrayList<>();
    for (Side s : sources) {
      wanted.addAll(s.take(column));
    }
    List<Cell> rawCells = raw.takeAll(column);
    List<Cell> markers = new ArrayList<>(familyMarkers);
    for (Cell c : rawCells) {
      if (c.getType() == Cell.Type.DeleteFamily || c.getType() == Cell.Type.DeleteFamilyVersion) {
        familyMarkers.add(c);
        markers.add(c);
      } else if (CellUtil.isDelete(c)) {
        markers.add(c);
      }
    }
    List<Cell> shownCells;
    if (shown != null) {
      shownCells = shown.take(column);
    } else {
      shownCells = new ArrayList<>();
      for (Cell c : rawCells) {
        if (shownCounts.counts(c)) {
          shownCells.add(c);
        }
      }
    }
    return RowFix.of(key, wanted, shownCells, markers, newVersionBehavior);
  }

  private List<Side> sides() {
    List<Side> all = new ArrayList<>(sources);
    all.add(raw);
    if (shown != null) {
      all.add(shown);
    }
    return all;
  }

  private static int compareColumns(Cell a, Cell b) {
    int f = ORDER.compareFamilies(a, b);
    return f != 0 ? f : ORDER.compareQualifiers(a, b);
  }

  /** One row's cells in a read's order, a column at a time. */
  private static final class Side {
    private final Iterator<Cell> cells;
    private final Counted.Filter counts;
    private Cell head;

    Side(Iterator<Cell> cells, Counted.Filter counts) {
      this.cells = cells;
      this.counts = counts;
    }

    Cell peek() {
      if (head == null && cells.hasNext()) {
        head = cells.next();
      }
      return head;
    }

    /** The cells of {@code column} this side holds, all of them. */
    List<Cell> takeAll(Cell column) {
      List<Cell> out = new ArrayList<>();
      while (peek() != null && compareColumns(head, column) == 0) {
        out.add(head);
        head = null;
      }
      return out;
    }

    /** The cells of {@code column} this side holds that count for it. */
    List<Cell> take(Cell column) {
      List<Cell> out = new ArrayList<>();
      for (Cell c : takeAll(column)) {
        if (counts.counts(c)) {
          out.add(c);
        }
      }
      return out;
    }
  }
}
