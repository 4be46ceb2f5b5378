package io.rekey.write;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Sorts one writer task's shuffle records, pairs of a {@link ShuffleCell} record (cells of one row)
 * and its old row (or null), into HBase's cell order: in memory while its {@link SorterMemory}
 * grants room, else in sorted runs of single cells spilled to local files ({@link SpilledRun}) and
 * merged at the end ({@link SortedSource#merge}).
 *
 * <p>It replaces Spark's sort of the shuffled pairs, which kept a tuple per record, estimated the
 * size of its buffer by walking sampled objects as it grew, and compared records through those
 * tuples: a third of the writer stage's time. Here the records stay the arrays they arrived as.
 *
 * <p>Consecutive records of one row whose cells follow on (a wide row read in batches, or
 * single-cell records) form a group, and the sort orders groups by their first record. Sixteen
 * bytes of each group's row sit in two {@code long[]} beside it, so most comparisons read no array.
 * Groups of the same row (two source rows merged into one) are merged cell by cell after the sort.
 *
 * <p>The sort buffer's arrays are this class's alone: filling, comparing and sorting them, and
 * handing their records out in order, are here; a spilled run's file format and the merge of sorted
 * sources are not.
 */
final class CellSorter implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(CellSorter.class);

  /** Bytes a record costs beyond its arrays' contents: array headers, slots and its group. */
  static final int RECORD_OVERHEAD = 56;

  /** Memory is asked for in steps of this size, not per record. */
  static final long STEP = 4L << 20;

  /** The smallest run a Spark task spills when memory is refused. */
  static final long MIN_RUN = 1L << 20;

  private final SorterMemory memory;
  private final Supplier<File> spillFiles;
  private final long minRun;
  private final List<File> runs = new ArrayList<>();
  private final List<SpilledRun.Reader> readers = new ArrayList<>();
  private long granted;
  private long used;
  // Set once the records are being handed out: Spark may still ask for memory, but the records
  // are no longer the sorter's to spill.
  private boolean handingOut;
  // The records in memory as they arrived.
  private int count;
  private byte[][] cells = new byte[1024][];
  private byte[][] olds = new byte[1024][];
  // Their groups: records [groupFrom, groupTo) share a row and are in cell order; the prefixes are
  // the 16 row bytes after the shared ones. The sort permutes the groups; the records stay put.
  private int groups;
  private int[] groupFrom = new int[1024];
  private int[] groupTo = new int[1024];
  private long[] groupPrefix = new long[1024];
  private long[] groupPrefixMore = new long[1024];
  // How many leading row bytes all records in memory share: the prefixes start after them.
  private int commonRowBytes;
  // Groups from here on have prefixes past the current shared bytes, computed as they arrived (the
  // record is still in the CPU's cache then); the sort computes the earlier ones again.
  private int prefixesValidFrom;
  // After the sort: the records' indexes in cell order, or -1 - n for spans.get(n): the cells of
  // several groups of one row, merged one by one.
  private int[] order;
  private int orderLength;
  private final List<List<Tuple2<byte[], byte[]>>> spans = new ArrayList<>();

  /**
   * @param spillFiles a new local file for each spilled run
   * @param minRun the fewest bytes spilled as a run when memory is refused
   */
  CellSorter(SorterMemory memory, Supplier<File> spillFiles, long minRun) {
    this.memory = memory;
    this.spillFiles = spillFiles;
    this.minRun = minRun;
  }

  /**
   * A sorter for the running Spark task: its memory comes from the task's memory manager (which may
   * ask it to spill when other consumers need room), its runs go to Spark's local directories, and
   * it is closed when the task ends, however it ends.
   */
  static CellSorter forTask(TaskContext task) {
    SorterMemory.OfTask memory = new SorterMemory.OfTask(task.taskMemoryManager());
    CellSorter sorter =
        new CellSorter(
            memory,
            () -> SparkEnv.get().blockManager().diskBlockManager().createTempLocalBlock()._2(),
            MIN_RUN);
    memory.spillsFrom(sorter);
    task.addTaskCompletionListener((TaskCompletionListener) done -> sorter.close());
    return sorter;
  }

  /** A sorter with a fixed memory budget and runs in {@code dir}, for use outside a Spark task. */
  static CellSorter withBudget(long bytes, File dir) {
    return new CellSorter(
        SorterMemory.budget(bytes),
        () -> {
          try {
            return File.createTempFile("cells-", ".run", dir);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot create a spill file in " + dir, e);
          }
        },
        Math.min(MIN_RUN, bytes / 2));
  }

  void add(byte[] cell, byte[] old) {
    long need = (long) cell.length + (old == null ? 0 : old.length) + RECORD_OVERHEAD;
    if (used + need > granted) {
      // May spill this sorter (Spark asks its consumers to) before it grants what it can.
      granted += memory.acquire(Math.max(need, STEP));
      // Refused: spill, unless the run would be tiny (Spark granting next to nothing must not
      // turn every record into a file of its own; the heap holds a small run beyond the grant).
      if (used + need > granted && used >= minRun) {
        spillRun();
      }
    }
    if (count == cells.length) {
      cells = Arrays.copyOf(cells, count * 2);
      olds = Arrays.copyOf(olds, count * 2);
    }
    cells[count] = cell;
    olds[count] = old;
    if (groups > 0 && continuesGroup(cells[count - 1], cell)) {
      groupTo[groups - 1] = count + 1;
    } else {
      if (groups == groupFrom.length) {
        groupFrom = Arrays.copyOf(groupFrom, groups * 2);
        groupTo = Arrays.copyOf(groupTo, groups * 2);
        groupPrefix = Arrays.copyOf(groupPrefix, groups * 2);
        groupPrefixMore = Arrays.copyOf(groupPrefixMore, groups * 2);
      }
      groupFrom[groups] = count;
      groupTo[groups] = count + 1;
      int shared =
          groups == 0 ? ShuffleCell.rowLength(cell) : sharedRowBytes(cells[groupFrom[0]], cell);
      if (shared != commonRowBytes) {
        commonRowBytes = shared;
        prefixesValidFrom = groups;
      }
      groupPrefix[groups] = rowPrefix(cell, commonRowBytes);
      groupPrefixMore[groups] = rowPrefix(cell, commonRowBytes + 8);
      groups++;
    }
    count++;
    used += need;
  }

  /**
   * Whether {@code record} may follow {@code previous} in its group: same row, its first cell not
   * before the other's last.
   */
  private static boolean continuesGroup(byte[] previous, byte[] record) {
    return ShuffleCell.sameRow(previous, record)
        && ShuffleCell.compareWithinRow(previous, ShuffleCell.lastCellOffset(previous), record, 0)
            <= 0;
  }

  /** Runs spilled so far. */
  int spills() {
    return runs.size();
  }

  /**
   * Spills the records in memory as one sorted run and gives their memory back, when Spark's memory
   * manager asks for room.
   *
   * @return the bytes given back
   */
  long spillAndRelease() {
    if (handingOut) {
      return 0;
    }
    spillRun();
    long freed = granted;
    granted = 0;
    memory.release(freed);
    return freed;
  }

  /** All records added, sorted; the sorter is not to be added to afterwards. */
  Iterator<Tuple2<byte[], byte[]>> sorted() {
    handingOut = true;
    sortInMemory();
    if (runs.isEmpty()) {
      return new InMemory();
    }
    List<SortedSource> sources = new ArrayList<>();
    for (File run : runs) {
      SpilledRun.Reader r = new SpilledRun.Reader(run);
      readers.add(r);
      sources.add(r);
    }
    sources.add(new MemorySource(true));
    return SortedSource.merge(sources);
  }

  /** Deletes the spilled runs and gives all memory back. */
  @Override
  public void close() {
    for (SpilledRun.Reader r : readers) {
      r.close();
    }
    readers.clear();
    for (File run : runs) {
      if (!run.delete() && run.exists()) {
        run.deleteOnExit();
      }
    }
    runs.clear();
    cells = null;
    olds = null;
    groupFrom = null;
    groupTo = null;
    groupPrefix = null;
    groupPrefixMore = null;
    order = null;
    memory.release(granted);
    granted = 0;
  }

  private void spillRun() {
    if (count == 0) {
      return;
    }
    sortInMemory();
    File file = spillFiles.get();
    // A run holds single cells: the merge of runs then orders cells, not rows.
    SpilledRun.write(file, new MemorySource(true));
    runs.add(file);
    LOG.info(
        "sorted {} records ({} MB) into run {} on local disk: the task's execution memory is full",
        count,
        used >> 20,
        runs.size());
    Arrays.fill(cells, 0, count, null);
    Arrays.fill(olds, 0, count, null);
    count = 0;
    groups = 0;
    prefixesValidFrom = 0;
    order = null;
    spans.clear();
    used = 0;
  }

  /** The leading row bytes {@code cell} shares with the first record, at most the current count. */
  private int sharedRowBytes(byte[] first, byte[] cell) {
    int limit = Math.min(commonRowBytes, ShuffleCell.rowLength(cell));
    int i = 0;
    while (i < limit && first[ShuffleCell.ROW_OFFSET + i] == cell[ShuffleCell.ROW_OFFSET + i]) {
      i++;
    }
    return i;
  }

  /**
   * Sorts the groups in memory, after bringing their prefixes past the shared row bytes up to date,
   * and lists the records in cell order: group after group, with the records of groups of one row
   * merged.
   */
  private void sortInMemory() {
    for (int g = 0; g < prefixesValidFrom; g++) {
      groupPrefix[g] = rowPrefix(cells[groupFrom[g]], commonRowBytes);
      groupPrefixMore[g] = rowPrefix(cells[groupFrom[g]], commonRowBytes + 8);
    }
    sort(0, groups - 1);
    order = new int[count];
    spans.clear();
    int n = 0;
    for (int g = 0; g < groups; ) {
      int end = g + 1;
      while (end < groups
          && groupPrefix[end] == groupPrefix[g]
          && groupPrefixMore[end] == groupPrefixMore[g]
          && ShuffleCell.sameRow(cells[groupFrom[g]], cells[groupFrom[end]])) {
        end++;
      }
      if (end - g == 1) {
        for (int i = groupFrom[g]; i < groupTo[g]; i++) {
          order[n++] = i;
        }
      } else {
        order[n++] = -1 - spans.size();
        spans.add(mergeRow(g, end));
      }
      g = end;
    }
    orderLength = n;
  }

  /**
   * The cells of groups {@code [from, to)}, all of one row (two source rows merged into one, say),
   * one by one in cell order, each with its record's old row.
   */
  private List<Tuple2<byte[], byte[]>> mergeRow(int from, int to) {
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    for (int g = from; g < to; g++) {
      for (int i = groupFrom[g]; i < groupTo[g]; i++) {
        byte[] record = cells[i];
        for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
          out.add(new Tuple2<>(ShuffleCell.cellAt(record, at), olds[i]));
        }
        cells[i] = null;
        olds[i] = null;
      }
    }
    // Stable: cells equal in key keep the order they came in.
    out.sort((a, b) -> ShuffleCell.compareWithinRow(a._1(), b._1()));
    return out;
  }

  /**
   * Eight bytes of the row from {@code from} on as an unsigned number, zero-padded: a shorter row
   * sorts first, as it does in HBase. Among rows that share their first {@code from} bytes,
   * different prefixes order records and equal ones leave it to the full comparison. Rows of one
   * writer task often share a long start (a salt bucket and a value, a time), hence the offset.
   */
  static long rowPrefix(byte[] cell, int from) {
    int length = ShuffleCell.rowLength(cell);
    long prefix = 0;
    for (int i = from; i < from + 8; i++) {
      prefix <<= 8;
      if (i < length) {
        prefix |= cell[ShuffleCell.ROW_OFFSET + i] & 0xff;
      }
    }
    return prefix;
  }

  /** Group {@code g} against a group with the given prefixes and first record. */
  private int compareTo(int g, long prefix, long prefixMore, byte[] first) {
    int c = Long.compareUnsigned(groupPrefix[g], prefix);
    if (c == 0) {
      c = Long.compareUnsigned(groupPrefixMore[g], prefixMore);
    }
    return c != 0 ? c : ShuffleCell.ORDER.compare(cells[groupFrom[g]], first);
  }

  private int compareAt(int g, int h) {
    return compareTo(g, groupPrefix[h], groupPrefixMore[h], cells[groupFrom[h]]);
  }

  /** Quicksort (median of three, insertion sort for short ranges) of the groups' arrays. */
  private void sort(int lo, int hi) {
    while (hi - lo > 16) {
      int mid = (lo + hi) >>> 1;
      if (compareAt(mid, lo) < 0) {
        swap(mid, lo);
      }
      if (compareAt(hi, lo) < 0) {
        swap(hi, lo);
      }
      if (compareAt(hi, mid) < 0) {
        swap(hi, mid);
      }
      long pivotPrefix = groupPrefix[mid];
      long pivotPrefixMore = groupPrefixMore[mid];
      byte[] pivot = cells[groupFrom[mid]];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (compareTo(i, pivotPrefix, pivotPrefixMore, pivot) < 0) {
          i++;
        }
        while (compareTo(j, pivotPrefix, pivotPrefixMore, pivot) > 0) {
          j--;
        }
        if (i <= j) {
          swap(i++, j--);
        }
      }
      // Recurse into the smaller side, loop over the larger: the stack stays logarithmic.
      if (j - lo < hi - i) {
        sort(lo, j);
        lo = i;
      } else {
        sort(i, hi);
        hi = j;
      }
    }
    for (int i = lo + 1; i <= hi; i++) {
      for (int k = i; k > lo && compareAt(k, k - 1) < 0; k--) {
        swap(k, k - 1);
      }
    }
  }

  private void swap(int g, int h) {
    int f = groupFrom[g];
    groupFrom[g] = groupFrom[h];
    groupFrom[h] = f;
    int t = groupTo[g];
    groupTo[g] = groupTo[h];
    groupTo[h] = t;
    long p = groupPrefix[g];
    groupPrefix[g] = groupPrefix[h];
    groupPrefix[h] = p;
    p = groupPrefixMore[g];
    groupPrefixMore[g] = groupPrefixMore[h];
    groupPrefixMore[h] = p;
  }

  /** The sorted records in memory, when nothing was spilled. */
  private final class InMemory implements Iterator<Tuple2<byte[], byte[]>> {
    private final MemorySource source = new MemorySource(false);
    private boolean ready = source.advance();

    @Override
    public boolean hasNext() {
      return ready;
    }

    @Override
    public Tuple2<byte[], byte[]> next() {
      if (!ready) {
        throw new NoSuchElementException();
      }
      Tuple2<byte[], byte[]> out = new Tuple2<>(source.cell, source.old);
      ready = source.advance();
      return out;
    }
  }

  /**
   * The sorted records in memory: as they are, or (to be merged with spilled runs, or spilled)
   * single cells.
   */
  private final class MemorySource extends SortedSource {
    private final boolean singleCells;
    private int next;
    // A merged span being handed out, and the next of its cells.
    private List<Tuple2<byte[], byte[]>> span;
    private int spanNext;
    // A record being cut into single cells, and where its next cell starts.
    private byte[] record;
    private byte[] recordOld;
    private int at;

    MemorySource(boolean singleCells) {
      this.singleCells = singleCells;
    }

    @Override
    boolean advance() {
      while (true) {
        if (span != null) {
          if (spanNext < span.size()) {
            Tuple2<byte[], byte[]> t = span.set(spanNext++, null);
            cell = t._1();
            old = t._2();
            return true;
          }
          span = null;
        }
        if (record != null) {
          if (at < record.length) {
            cell = ShuffleCell.cellAt(record, at);
            at += cell.length;
            old = recordOld;
            return true;
          }
          record = null;
        }
        if (next >= orderLength) {
          return false;
        }
        int i = order[next++];
        if (i < 0) {
          span = spans.get(-1 - i);
          spanNext = 0;
          continue;
        }
        byte[] r = cells[i];
        byte[] o = olds[i];
        // Handed on: the writer holds it as long as it needs it.
        cells[i] = null;
        olds[i] = null;
        if (singleCells && ShuffleCell.cellLength(r, 0) < r.length) {
          record = r;
          recordOld = o;
          at = 0;
          continue;
        }
        cell = r;
        old = o;
        return true;
      }
    }
  }
}
