package io.rekey.sketch;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * The {@code k} heaviest items seen, exact: a fixed-size min-heap, so merging partitions keeps the
 * true top {@code k}.
 *
 * @param <T> the item (a row, a cell)
 */
public final class TopK<T extends Serializable> implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int k;
  private final SerializableWeight<T> weight;
  // The comparator is a lambda, which does not serialize: the queue travels as a list.
  private transient PriorityQueue<T> lightestFirst;
  // The weight of the lightest item kept, once the list is full.
  private transient long lightest;

  /** How heavy an item is; serializable so the list can travel from executors. */
  @FunctionalInterface
  public interface SerializableWeight<T> extends ToLongFunction<T>, Serializable {}

  public TopK(int k, SerializableWeight<T> weight) {
    this.k = k;
    this.weight = weight;
    this.lightestFirst = newQueue(weight);
  }

  /** Whether an item of this weight would enter the list: test before building the item. */
  public boolean accepts(long itemWeight) {
    // Asked for every cell: a plain field read, not a look into the heap.
    return k > 0 && (lightestFirst.size() < k || itemWeight > lightest);
  }

  public void offer(T item) {
    if (!accepts(weight.applyAsLong(item))) {
      return;
    }
    lightestFirst.add(item);
    if (lightestFirst.size() > k) {
      lightestFirst.poll();
    }
    lightest = weight.applyAsLong(lightestFirst.peek());
  }

  public TopK<T> merge(TopK<T> other) {
    other.lightestFirst.forEach(this::offer);
    return this;
  }

  private static <T> PriorityQueue<T> newQueue(ToLongFunction<T> weight) {
    return new PriorityQueue<>(Comparator.comparingLong(weight));
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    out.writeObject(new ArrayList<>(lightestFirst));
  }

  @SuppressWarnings("unchecked")
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    lightestFirst = newQueue(weight);
    ((List<T>) in.readObject()).forEach(this::offer);
  }

  /** The items, heaviest first. */
  public List<T> heaviestFirst() {
    List<T> out = new ArrayList<>(lightestFirst);
    out.sort(Comparator.comparingLong(weight).reversed());
    return out;
  }
}
