package io.rekey.write;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import scala.Tuple2;

/** A sorted stream of shuffle records and their old rows, read one record at a time. */
abstract class SortedSource {
  /** The current record, once {@link #advance} returned true. */
  byte[] cell;

  /** The current record's old row, or null. */
  byte[] old;

  /** Moves to the next record; false at the end. */
  abstract boolean advance();

  /**
   * The records of every source in HBase's cell order: a heap of the sources' heads, compared in
   * full (the sources' prefixes start at different offsets).
   */
  static Iterator<Tuple2<byte[], byte[]>> merge(List<SortedSource> sources) {
    PriorityQueue<SortedSource> heads =
        new PriorityQueue<>((a, b) -> ShuffleCell.ORDER.compare(a.cell, b.cell));
    for (SortedSource s : sources) {
      if (s.advance()) {
        heads.add(s);
      }
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !heads.isEmpty();
      }

      @Override
      public Tuple2<byte[], byte[]> next() {
        SortedSource s = heads.poll();
        if (s == null) {
          throw new NoSuchElementException();
        }
        Tuple2<byte[], byte[]> out = new Tuple2<>(s.cell, s.old);
        if (s.advance()) {
          heads.add(s);
        }
        return out;
      }
    };
  }
}
