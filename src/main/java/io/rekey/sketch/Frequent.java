package io.rekey.sketch;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;

/**
 * The heaviest items of a stream with their weights (frequent items, DataSketches): bounded memory
 * whatever the number of distinct items; every estimate is within {@link #maxError()} of the truth
 * and no item heavier than that is missed.
 */
public final class Frequent implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The sketch's map size: the error is at most 3.5/1024 of the total weight. */
  public static final int MAP_SIZE = 1024;

  private transient ItemsSketch<String> sketch = new ItemsSketch<>(MAP_SIZE);

  public void update(String item, long weight) {
    if (weight > 0) {
      sketch.update(item, weight);
    }
  }

  public Frequent merge(Frequent other) {
    sketch.merge(other.sketch);
    return this;
  }

  /** The largest error of any estimate. */
  public long maxError() {
    return sketch.getMaximumError();
  }

  public long totalWeight() {
    return sketch.getStreamLength();
  }

  /**
   * Up to {@code n} heaviest items, heaviest first: only items certainly heavier than the error (no
   * false positives), so a stream of all-distinct items gives none rather than noise.
   */
  public List<Weighted> top(int n) {
    List<Weighted> out = new ArrayList<>();
    for (ItemsSketch.Row<String> row : sketch.getFrequentItems(ErrorType.NO_FALSE_POSITIVES)) {
      if (out.size() == n) {
        break;
      }
      out.add(new Weighted(row.getItem(), row.getEstimate()));
    }
    return out;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    SketchBytes.write(out, DataSketchesLine.toBytes(sketch));
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    byte[] bytes = SketchBytes.read(in);
    sketch = DataSketchesLine.fromBytes(bytes);
  }
}
