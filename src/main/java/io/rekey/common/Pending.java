package io.rekey.common;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * What a lazy stage has made and not yet handed out: items at hand, then iterators of items made
 * only as they are taken (a wide row's, read a piece at a time), in that order.
 */
public final class Pending<T> {
  private final ArrayDeque<T> ready = new ArrayDeque<>();
  private final ArrayDeque<Iterator<T>> later = new ArrayDeque<>();

  /** Adds an item at hand. */
  public void add(T item) {
    ready.add(item);
  }

  /** Adds items to be made as they are taken, after everything added before. */
  public void later(Iterator<T> items) {
    later.add(items);
  }

  /** Whether an item can be taken, making the next one of the later items if need be. */
  public boolean hasNext() {
    while (ready.isEmpty() && !later.isEmpty()) {
      if (later.peek().hasNext()) {
        ready.add(later.peek().next());
      } else {
        later.poll();
      }
    }
    return !ready.isEmpty();
  }

  /** Takes the next item. */
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return ready.poll();
  }
}
