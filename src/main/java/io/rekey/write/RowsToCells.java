package io.rekey.write;

import io.rekey.common.Pending;
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
  /** Pairs made and not yet taken, and pairs to be made as they are taken (a wide row's). */
  protected final Pending<Tuple2<byte[], byte[]>> pending = new Pending<>();

  private final Iterator<Tuple2<ImmutableBytesWritable, Result>> rows;
  private boolean finished;

  protected RowsToCells(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
    this.rows = rows;
  }

  /** Reads one or more rows from {@code rows} (at least one; it has one) into {@link #pending}. */
  protected abstract void read(Iterator<Tuple2<ImmutableBytesWritable, Result>> rows);

  /** Called once, when the input is exhausted: write the task's counts. */
  protected abstract void finish();

  @Override
  public final boolean hasNext() {
    while (!pending.hasNext()) {
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
    return pending.next();
  }
}
