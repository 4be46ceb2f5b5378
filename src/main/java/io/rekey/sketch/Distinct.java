package io.rekey.sketch;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

/** A distinct count (HyperLogLog, DataSketches): about 1.6% error in 2 KiB, mergeable. */
public final class Distinct implements Serializable {
  private static final long serialVersionUID = 1L;

  /** 2^12 buckets: relative standard error about 1.6%. */
  public static final int LG_K = 12;

  private transient HllSketch sketch = new HllSketch(LG_K, TgtHllType.HLL_4);

  public void update(byte[] item) {
    sketch.update(item);
  }

  public void update(String item) {
    sketch.update(item);
  }

  public Distinct merge(Distinct other) {
    Union union = new Union(LG_K);
    union.update(sketch);
    union.update(other.sketch);
    sketch = union.getResult(TgtHllType.HLL_4);
    return this;
  }

  public long estimate() {
    return Math.round(sketch.getEstimate());
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    SketchBytes.write(out, sketch.toCompactByteArray());
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    byte[] bytes = SketchBytes.read(in);
    sketch = HllSketch.heapify(bytes);
  }
}
