package io.rekey.audit;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A uniform sample of fixed size: the {@code k} items with the smallest hashes. Two samples merge
 * into exactly the sample of the union (keep the {@code k} smallest of both), so partitions can be
 * sampled apart and merged on the driver. Items must have well-mixed hashes.
 *
 * @param <T> the sampled item
 */
public final class BottomK<T extends Serializable> implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int k;
  // The comparator is a lambda, which does not serialize: the queue travels as a list.
  private transient PriorityQueue<Entry<T>> largestFirst = newQueue();

  public BottomK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("sample size must be 1 or more, not " + k);
    }
    this.k = k;
  }

  /** Whether an item with this hash would enter the sample: test before building the item. */
  public boolean accepts(long hash) {
    return largestFirst.size() < k || hash < largestFirst.peek().hash;
  }

  public void offer(long hash, T item) {
    if (!accepts(hash)) {
      return;
    }
    largestFirst.add(new Entry<>(hash, item));
    if (largestFirst.size() > k) {
      largestFirst.poll();
    }
  }

  public BottomK<T> merge(BottomK<T> other) {
    for (Entry<T> e : other.largestFirst) {
      offer(e.hash, e.item);
    }
    return this;
  }

  public int size() {
    return largestFirst.size();
  }

  /** The sampled items, in no particular order. */
  public List<T> items() {
    List<T> out = new ArrayList<>(largestFirst.size());
    for (Entry<T> e : largestFirst) {
      out.add(e.item);
    }
    return out;
  }

  private static <T> PriorityQueue<Entry<T>> newQueue() {
    return new PriorityQueue<>(Comparator.comparingLong((Entry<T> e) -> e.hash).reversed());
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    out.writeObject(new ArrayList<>(largestFirst));
  }

  @SuppressWarnings("unchecked")
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    largestFirst = newQueue();
    largestFirst.addAll((List<Entry<T>>) in.readObject());
  }

  private static final class Entry<T> implements Serializable {
    private static final long serialVersionUID = 1L;
    final long hash;
    final T item;

    Entry(long hash, T item) {
      this.hash = hash;
      this.item = item;
    }
  }
}
