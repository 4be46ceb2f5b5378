package io.rekey.audit;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A uniform sample of fixed size: the {@code k} items with the smallest hashes. Two samples merge
 * into exactly the sample of the union (keep the {@code k} smallest of both), so partitions can be
 * sampled apart and merged on the driver. Items must have well-mixed hashes.
 *
 * <p>Offered for every cell of a table, so it keeps candidates in primitive arrays and prunes them
 * in batches (no heap, no comparator, no boxing), and it serializes its items through a {@link
 * Codec} as plain bytes: Java's object serialization of tens of thousands of records would cost
 * more than profiling them.
 *
 * @param <T> the sampled item
 */
public final class BottomK<T> implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Writes and reads one item as bytes. */
  public interface Codec<T> extends Serializable {
    void write(DataOutput out, T item) throws IOException;

    T read(DataInput in) throws IOException;
  }

  private final int k;
  private final Codec<T> codec;
  // Candidates in no order, up to 2k; when full, the k smallest are kept (a selection, O(k)) and
  // the largest of those becomes the threshold: amortized O(1) per offer, no heap to sift.
  private transient long[] hashes;
  private transient Object[] items;
  private transient int size;
  private transient long threshold;

  public BottomK(int k, Codec<T> codec) {
    if (k < 1) {
      throw new IllegalArgumentException("sample size must be 1 or more, not " + k);
    }
    this.k = k;
    this.codec = codec;
    allocate();
  }

  private void allocate() {
    hashes = new long[Math.min(2 * k, 1024)];
    items = new Object[hashes.length];
    size = 0;
    threshold = Long.MAX_VALUE;
  }

  /** Whether an item with this hash would enter the sample: test before building the item. */
  public boolean accepts(long hash) {
    return hash < threshold;
  }

  public void offer(long hash, T item) {
    if (hash >= threshold) {
      return;
    }
    if (size == hashes.length) {
      if (size == 2 * k) {
        keepSmallest();
      } else {
        int grown = Math.min(2 * k, hashes.length * 2);
        hashes = Arrays.copyOf(hashes, grown);
        items = Arrays.copyOf(items, grown);
      }
    }
    if (hash >= threshold) {
      return;
    }
    hashes[size] = hash;
    items[size] = item;
    size++;
  }

  /** Keeps the k smallest candidates and lowers the threshold to the largest of them. */
  private void keepSmallest() {
    if (size <= k) {
      return;
    }
    select(k - 1);
    long largestKept = Long.MIN_VALUE;
    for (int i = 0; i < k; i++) {
      largestKept = Math.max(largestKept, hashes[i]);
    }
    Arrays.fill(items, k, size, null);
    size = k;
    // Ties at the threshold are rare with 64-bit hashes; a tie is simply not taken.
    threshold = largestKept;
  }

  /** Quickselect over both arrays: afterwards positions 0..n hold the n+1 smallest hashes. */
  private void select(int n) {
    int lo = 0;
    int hi = size - 1;
    while (lo < hi) {
      long pivot = median(hashes[lo], hashes[(lo + hi) >>> 1], hashes[hi]);
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (hashes[i] < pivot) {
          i++;
        }
        while (hashes[j] > pivot) {
          j--;
        }
        if (i <= j) {
          swap(i++, j--);
        }
      }
      if (n <= j) {
        hi = j;
      } else if (n >= i) {
        lo = i;
      } else {
        return;
      }
    }
  }

  private static long median(long a, long b, long c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private void swap(int i, int j) {
    long h = hashes[i];
    hashes[i] = hashes[j];
    hashes[j] = h;
    Object o = items[i];
    items[i] = items[j];
    items[j] = o;
  }

  @SuppressWarnings("unchecked")
  public BottomK<T> merge(BottomK<T> other) {
    other.keepSmallest();
    for (int i = 0; i < other.size; i++) {
      offer(other.hashes[i], (T) other.items[i]);
    }
    return this;
  }

  public int size() {
    keepSmallest();
    return size;
  }

  /** The sampled items, in no particular order. */
  @SuppressWarnings("unchecked")
  public List<T> items() {
    keepSmallest();
    List<T> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add((T) items[i]);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    keepSmallest();
    // Items go through a plain data stream into one array: far cheaper than writing each value
    // through the object stream.
    UnsyncedBytes.Out buffer = new UnsyncedBytes.Out(size * 64);
    DataOutputStream data = new DataOutputStream(buffer);
    data.writeInt(size);
    for (int i = 0; i < size; i++) {
      data.writeLong(hashes[i]);
      codec.write(data, (T) items[i]);
    }
    data.flush();
    out.writeInt(buffer.size());
    buffer.writeTo(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    allocate();
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    DataInputStream data = new DataInputStream(new UnsyncedBytes.In(bytes));
    int n = data.readInt();
    for (int i = 0; i < n; i++) {
      long hash = data.readLong();
      offer(hash, codec.read(data));
    }
  }
}
