package io.rekey.testing;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * A region observer that makes the region server refuse bulk loads into the region starting at
 * {@link #regionStart}, {@link #refusals} times: a real failure of a load after other regions
 * loaded their files. Attach it to a table's descriptor in a test.
 */
public final class RefuseBulkLoads implements RegionCoprocessor, RegionObserver {
  /** The start key of the region that refuses. */
  public static volatile byte[] regionStart = new byte[0];

  /** How many more loads to refuse. */
  public static final AtomicInteger refusals = new AtomicInteger();

  /** How many loads were refused. */
  public static final AtomicInteger refused = new AtomicInteger();

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preBulkLoadHFile(
      ObserverContext<RegionCoprocessorEnvironment> ctx, List<Pair<byte[], String>> familyPaths)
      throws IOException {
    byte[] start = ctx.getEnvironment().getRegionInfo().getStartKey();
    if (Bytes.equals(start, regionStart) && refusals.getAndDecrement() > 0) {
      refused.incrementAndGet();
      throw new IOException("injected: this region server refuses the bulk load");
    }
  }
}
