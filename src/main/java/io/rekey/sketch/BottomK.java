package io.rekey.sketch;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A uniform sample of fixed size: the {@code k} items with the smallest hashes. Two samples merge
 * into exactly the sample of the union (keep the {@code k} smallest of both), so partitions can be
 * sampled apart and merged on the driver. Items must have well-mixed hashes.
 *
 * <p>Offered for every cell of a table, so it keeps candidates in primitive arrays and prunes them
 * in batches (no heap, no comparator, no boxing). An item is encoded through its {@link Codec} as
 * it enters, into a {@link ByteArena}: tens of thousands of sampled rows kept as objects survived
 * every young collection of a task and made each pause several times longer, and serializing them
 * one by one cost more than profiling them. Samples travel and merge as bytes; items are decoded
 * only when {@link #items} is asked for.
 *
 * <p>Items keep the order they were offered in, through pruning and merging (a merge appends the
 * other sample's survivors). A task offers rows in key order, so a merged sample of keys is a few
 * sorted runs, which the analysis sorts in a merge pass instead of a full sort.
 *
 * @param <T> the sampled item
 */
public final class BottomK<T> implements Serializable {
  private static final long serialVersionUID = 2L;

  /** Writes and reads one item as bytes. */
  public interface Codec<T> extends Serializable {
    void write(DataOutput out, T item) throws IOException;

    T read(DataInput in) throws IOException;
  }

  private final int k;
  private final Codec<T> codec;
  // Candidates in the order offered, up to 2k: a hash and where its item's bytes lie in the arena.
  // When full, the k smallest are kept in their order (a selection on a copy of the hashes, O(k)),
  // their bytes copied to the spare arena, which becomes the arena, and the largest kept hash
  // becomes the threshold: amortized O(1) per offer, no heap to sift, and no allocation once both
  // arenas have their pages.
  private transient long[] hashes;
  private transient long[] selecting;
  private transient long[] addresses;
  private transient int[] lengths;
  private transient ByteArena arena;
  private transient ByteArena spare;
  private transient int size;
  private transient long threshold;
  // The lowest threshold other samples of the same items have reached (see SharedThresholds), or
  // null when this sample is alone.
  private transient AtomicLong shared;
  // Where an offered item is encoded before it is copied into the arena.
  private transient UnsyncedBytes.Out encoded;
  private transient DataOutputStream encoder;

  public BottomK(int k, Codec<T> codec) {
    if (k < 1) {
      throw new IllegalArgumentException("sample size must be 1 or more, not " + k);
    }
    this.k = k;
    this.codec = codec;
    allocate(Math.min(2 * k, 1024));
  }

  private void allocate(int capacity) {
    hashes = new long[capacity];
    selecting = null;
    addresses = new long[capacity];
    lengths = new int[capacity];
    arena = new ByteArena();
    spare = new ByteArena();
    size = 0;
    threshold = Long.MAX_VALUE;
  }

  /**
   * Shares the pruning threshold with other samples whose items will be merged with these: each
   * one's threshold bounds what the merged sample can hold, so all of them take the lowest.
   */
  public void shareThreshold(AtomicLong threshold) {
    shared = threshold;
    this.threshold = Math.min(this.threshold, threshold.get());
  }

  /** Whether an item with this hash would enter the sample: test before building the item. */
  public boolean accepts(long hash) {
    return hash < threshold;
  }

  public void offer(long hash, T item) {
    if (!makeRoom(hash)) {
      return;
    }
    if (encoder == null) {
      encoded = new UnsyncedBytes.Out(256);
      encoder = new DataOutputStream(encoded);
    }
    encoded.reset();
    try {
      codec.write(encoder, item);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a sampled item", e);
    }
    append(hash, arena.append(encoded.array(), 0, encoded.size()), encoded.size());
  }

  /** Whether an item with this hash enters, after pruning or growing to make a slot for it. */
  private boolean makeRoom(long hash) {
    if (hash >= threshold) {
      return false;
    }
    if (size == hashes.length) {
      if (size == 2 * k) {
        keepSmallest();
      } else {
        int grown = Math.min(2 * k, hashes.length * 2);
        hashes = Arrays.copyOf(hashes, grown);
        addresses = Arrays.copyOf(addresses, grown);
        lengths = Arrays.copyOf(lengths, grown);
      }
    }
    return hash < threshold;
  }

  private void append(long hash, long address, int length) {
    hashes[size] = hash;
    addresses[size] = address;
    lengths[size] = length;
    size++;
  }

  /**
   * Keeps the k smallest candidates in their order, their bytes alone in the other arena, and
   * lowers the threshold to the largest of them.
   */
  private void keepSmallest() {
    if (size <= k) {
      return;
    }
    if (selecting == null || selecting.length < size) {
      selecting = new long[hashes.length];
    }
    System.arraycopy(hashes, 0, selecting, 0, size);
    long largestKept = kthSmallest(selecting, size, k - 1);
    // Ties at the cut are rare with 64-bit hashes: the first of them are kept, up to k in all.
    int below = 0;
    for (int i = 0; i < size; i++) {
      if (hashes[i] < largestKept) {
        below++;
      }
    }
    int ties = k - below;
    ByteArena kept = spare;
    kept.reset();
    int n = 0;
    for (int i = 0; i < size; i++) {
      long hash = hashes[i];
      if (hash < largestKept || hash == largestKept && ties-- > 0) {
        hashes[n] = hash;
        addresses[n] = arena.copyTo(addresses[i], lengths[i], kept);
        lengths[n] = lengths[i];
        n++;
      }
    }
    spare = arena;
    arena = kept;
    size = n;
    // A hash equal to the threshold is not taken: the one kept came first.
    threshold = shared == null ? largestKept : shared.accumulateAndGet(largestKept, Math::min);
  }

  /**
   * Quickselect: the {@code n}-th smallest (from 0) of the first {@code size} values, reordered.
   */
  public static long kthSmallest(long[] values, int size, int n) {
    int lo = 0;
    int hi = size - 1;
    while (lo < hi) {
      long pivot = median(values[lo], values[(lo + hi) >>> 1], values[hi]);
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (values[i] < pivot) {
          i++;
        }
        while (values[j] > pivot) {
          j--;
        }
        if (i <= j) {
          long v = values[i];
          values[i++] = values[j];
          values[j--] = v;
        }
      }
      if (n <= j) {
        hi = j;
      } else if (n >= i) {
        lo = i;
      } else {
        return values[n];
      }
    }
    return values[n];
  }

  private static long median(long a, long b, long c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  public BottomK<T> merge(BottomK<T> other) {
    other.keepSmallest();
    for (int i = 0; i < other.size; i++) {
      long hash = other.hashes[i];
      if (makeRoom(hash)) {
        append(
            hash,
            other.arena.copyTo(other.addresses[i], other.lengths[i], arena),
            other.lengths[i]);
      }
    }
    return this;
  }

  public int size() {
    keepSmallest();
    return size;
  }

  /** About how many bytes this sample takes serialized: its items and their hashes and lengths. */
  public long serializedBytes() {
    keepSmallest();
    long bytes = 4;
    for (int i = 0; i < size; i++) {
      bytes += 12 + lengths[i];
    }
    return bytes;
  }

  /** The sampled items, decoded, in the order they were offered (see the class comment). */
  public List<T> items() {
    keepSmallest();
    List<T> out = new ArrayList<>(size);
    try {
      for (int i = 0; i < size; i++) {
        long address = addresses[i];
        out.add(
            codec.read(
                new DataInputStream(
                    new UnsyncedBytes.In(
                        arena.page(address), ByteArena.offset(address), lengths[i]))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot decode a sampled item", e);
    }
    return out;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    keepSmallest();
    out.writeInt(size);
    for (int i = 0; i < size; i++) {
      out.writeLong(hashes[i]);
      out.writeInt(lengths[i]);
    }
    for (int i = 0; i < size; i++) {
      arena.writeTo(addresses[i], lengths[i], out);
    }
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    int n = in.readInt();
    allocate(Math.max(n, Math.min(2 * k, 1024)));
    byte[] buffer = new byte[256];
    for (int i = 0; i < n; i++) {
      hashes[i] = in.readLong();
      lengths[i] = in.readInt();
    }
    for (int i = 0; i < n; i++) {
      int length = lengths[i];
      if (buffer.length < length) {
        buffer = new byte[Math.max(length, 2 * buffer.length)];
      }
      in.readFully(buffer, 0, length);
      addresses[i] = arena.append(buffer, 0, length);
    }
    size = n;
  }
}
