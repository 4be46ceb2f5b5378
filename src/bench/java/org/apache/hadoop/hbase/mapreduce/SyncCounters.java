package org.apache.hadoop.hbase.mapreduce;

/**
 * What a finished {@link SyncTable} counted, which it keeps in a package-private field: the
 * benchmark's check that its dry run found the copy equal (bench code only).
 */
public final class SyncCounters {
  private SyncCounters() {}

  /** The hash batches whose source and target hashes differed. */
  public static long notMatched(SyncTable sync) {
    return sync.counters.findCounter(SyncTable.SyncMapper.Counter.HASHES_NOT_MATCHED).getValue();
  }
}
