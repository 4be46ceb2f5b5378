package io.rekey.testing;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.RegionTooBusyException;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

/**
 * A region observer that makes the region server answer {@link RegionTooBusyException} to the next
 * {@link #answers} batches of writes, as a region over its memstore limit does: the exception
 * crosses the RPC to the client like the real one. Attach it to a table's descriptor in a test.
 */
public final class BusyRegion implements RegionCoprocessor, RegionObserver {
  /** How many more write batches to refuse as busy. */
  public static final AtomicInteger answers = new AtomicInteger();

  /** How many write batches were refused. */
  public static final AtomicInteger answered = new AtomicInteger();

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preBatchMutate(
      ObserverContext<RegionCoprocessorEnvironment> ctx,
      MiniBatchOperationInProgress<Mutation> miniBatchOp)
      throws IOException {
    if (answers.getAndDecrement() > 0) {
      answered.incrementAndGet();
      throw new RegionTooBusyException(
          "injected: "
              + ctx.getEnvironment().getRegionInfo().getRegionNameAsString()
              + " is over its memstore limit");
    }
  }
}
