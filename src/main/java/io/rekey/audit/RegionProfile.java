package io.rekey.audit;

import io.rekey.sketch.Quantiles;
import java.io.Serializable;

/** One region's share, with when its cells were written. */
final class RegionProfile implements Serializable {
  private static final long serialVersionUID = 1L;
  long rows;
  long cells;
  long bytes;
  long oldestTs = Long.MAX_VALUE;
  long newestTs = Long.MIN_VALUE;
  // A uniform sample of the region's cells' timestamps: the shape of when it was written.
  final Quantiles timestamps = new Quantiles();

  RegionProfile merge(RegionProfile o) {
    rows += o.rows;
    cells += o.cells;
    bytes += o.bytes;
    oldestTs = Math.min(oldestTs, o.oldestTs);
    newestTs = Math.max(newestTs, o.newestTs);
    timestamps.merge(o.timestamps);
    return this;
  }
}
