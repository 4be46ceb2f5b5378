package io.rekey.write;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import scala.Tuple2;

/**
 * A map task's output: each source row read turns into any number of {@link ShuffleCell} pairs,
 * produced lazily (a wide row's cells are not all held at once), and when the input ends the task
 * writes its counts exactly once. Subclasses say what a row becomes and what the end writes.
 */
public abstract class RowsToCells implements Iterator<Tuple2<byte[], byte[]>> {
  /** Pairs made and not yet taken. */
  protected final ArrayDeque<Tuple2<byte[], byte[]>> pending = new ArrayDeque<>();

  /** Pairs still to be made, taken one at a time once {@link #pending} is empty: a wide row's. */
  private final ArrayDeque<Iterator<Tuple2<byte[], byte[]>>> later = new ArrayDeque<>();

  private final Iterator<Tuple2<ImmutableBytesWritable, Result>> rows;
  private boolean finished;

  protected RowsToCells(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    this.rows = rows;
  }

  /** Reads one or more rows from {@code rows} (at least one; it has one) into {@link #pending}. */
  protected abstract void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows);

  /**
   * Adds pairs that are made as they are taken (a wide row's, read a piece at a time): they come
   * after {@link #pending}, before the next row is read.
   */
  protected void later(Iterator<Tuple2<byte[], byte[]>> pairs) {
    later.add(pairs);
  }

  /** Called once, when the input is exhausted: write the task's counts. */
  protected abstract void finish();

  @Override
  public final boolean hasNext() {
    while (pending.isEmpty()) {
      if (!later.isEmpty()) {
        if (later.peek().hasNext()) {
          pending.add(later.peek().next());
        } else {
          later.poll();
        }
        continue;
      }
      if (!rows.hasNext()) {
        if (!finished) {
          finished = true;
          finish();
        }
        return false;
      }
      read(rows);
    }
    return true;
  }

  @Override
  public final Tuple2<byte[], byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return pending.poll();
  }
}
