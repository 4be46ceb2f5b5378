package io.rekey.audit;

import io.rekey.sketch.Distinct;
import io.rekey.sketch.Frequent;
import io.rekey.sketch.Weighted;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cells and bytes per qualifier of one family. Exact while the family has at most {@link
 * #EXACT_LIMIT} distinct qualifiers (almost every table), then bounded sketches: frequent items for
 * the heaviest qualifiers and HyperLogLog for the distinct count. HBase's CellCounter writes one
 * line per row and qualifier instead, which fills disks on big tables.
 */
final class QualifierCounter implements Serializable {
  private static final long serialVersionUID = 1L;
  static final int EXACT_LIMIT = 4096;

  private Map<Slice, long[]> exact = new HashMap<>();
  // Set once the family has more distinct qualifiers than EXACT_LIMIT; exact is then null.
  private Frequent byCells;
  private Frequent byBytes;
  private Distinct distinct;
  private transient Slice probe;
  // The qualifier last seen at each column position of a row, and its counts.
  private transient Slice[] byPosition = new Slice[POSITIONS];
  private transient long[][] countsByPosition = new long[POSITIONS][];
  static final int POSITIONS = 64;

  /**
   * Counts one cell of {@code bytes} bytes whose qualifier is {@code array[offset, +length)}, the
   * {@code position}-th column of its family in its row.
   */
  void add(byte[] array, int offset, int length, int position, long bytes) {
    if (exact != null && position < POSITIONS && byPosition != null) {
      Slice cached = byPosition[position];
      if (cached != null && cached.sameAs(array, offset, length)) {
        long[] counts = countsByPosition[position];
        counts[0]++;
        counts[1] += bytes;
        return;
      }
    }
    addHashed(array, offset, length, Bytes.hashCode(array, offset, length), position, bytes);
  }

  private void addHashed(byte[] array, int offset, int length, int hash, int position, long bytes) {
    if (exact != null) {
      if (probe == null) {
        probe = new Slice();
      }
      long[] counts = exact.get(probe.point(array, offset, length, hash));
      if (counts == null) {
        if (exact.size() == EXACT_LIMIT) {
          switchToSketches();
          addHashed(array, offset, length, hash, position, bytes);
          return;
        }
        counts = new long[2];
        exact.put(Slice.copyOf(array, offset, length), counts);
      }
      counts[0]++;
      counts[1] += bytes;
      // Remember where this qualifier was seen, so the next row's cell at this position hits.
      if (position < POSITIONS) {
        if (byPosition == null) {
          byPosition = new Slice[POSITIONS];
          countsByPosition = new long[POSITIONS][];
        }
        byPosition[position] = Slice.copyOf(array, offset, length);
        countsByPosition[position] = counts;
      }
      return;
    }
    String name = Bytes.toStringBinary(array, offset, length);
    byCells.update(name, 1);
    byBytes.update(name, bytes);
    distinct.update(name);
  }

  private void switchToSketches() {
    byPosition = new Slice[POSITIONS];
    countsByPosition = new long[POSITIONS][];
    byCells = new Frequent();
    byBytes = new Frequent();
    distinct = new Distinct();
    for (Map.Entry<Slice, long[]> e : exact.entrySet()) {
      String name = e.getKey().printable();
      byCells.update(name, e.getValue()[0]);
      byBytes.update(name, e.getValue()[1]);
      distinct.update(name);
    }
    exact = null;
  }

  QualifierCounter merge(QualifierCounter other) {
    if (exact != null && other.exact != null) {
      for (Map.Entry<Slice, long[]> e : other.exact.entrySet()) {
        long[] counts = exact.computeIfAbsent(e.getKey(), k -> new long[2]);
        counts[0] += e.getValue()[0];
        counts[1] += e.getValue()[1];
      }
      if (exact.size() > EXACT_LIMIT) {
        switchToSketches();
      }
      return this;
    }
    if (exact != null) {
      switchToSketches();
    }
    if (other.exact != null) {
      other.switchToSketches();
    }
    byCells.merge(other.byCells);
    byBytes.merge(other.byBytes);
    distinct.merge(other.distinct);
    return this;
  }

  /** Whether the counts are exact (the family has few enough distinct qualifiers). */
  boolean isExact() {
    return exact != null;
  }

  long distinctQualifiers() {
    return exact != null ? exact.size() : distinct.estimate();
  }

  List<Weighted> topByCells(int n) {
    return exact != null ? topExact(n, 0) : byCells.top(n);
  }

  List<Weighted> topByBytes(int n) {
    return exact != null ? topExact(n, 1) : byBytes.top(n);
  }

  private List<Weighted> topExact(int n, int index) {
    List<Weighted> all = new ArrayList<>();
    for (Map.Entry<Slice, long[]> e : exact.entrySet()) {
      all.add(new Weighted(e.getKey().printable(), e.getValue()[index]));
    }
    all.sort(Comparator.comparingLong(Weighted::weight).reversed().thenComparing(Weighted::item));
    return List.copyOf(all.subList(0, Math.min(n, all.size())));
  }

  /**
   * A byte range used as a map key. Stored keys own a copy; the probe points into a cell's backing
   * array so that counting a known qualifier allocates nothing.
   */
  static final class Slice implements Serializable {
    private static final long serialVersionUID = 1L;
    private byte[] array;
    private int offset;
    private int length;
    private int hash;

    static Slice copyOf(byte[] array, int offset, int length) {
      return new Slice()
          .point(
              Arrays.copyOfRange(array, offset, offset + length),
              0,
              length,
              Bytes.hashCode(array, offset, length));
    }

    Slice point(byte[] a, int off, int len, int h) {
      this.array = a;
      this.offset = off;
      this.length = len;
      this.hash = h;
      return this;
    }

    boolean sameAs(byte[] a, int off, int len) {
      return TableProfile.sameBytes(array, offset, length, a, off, len);
    }

    String printable() {
      return Bytes.toStringBinary(array, offset, length);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Slice s
          && hash == s.hash
          && TableProfile.sameBytes(array, offset, length, s.array, s.offset, s.length);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
