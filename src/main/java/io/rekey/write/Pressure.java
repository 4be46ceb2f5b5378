package io.rekey.write;

/**
 * How far a job's writes were held back by the cluster: the back-offs after busy answers from
 * region servers to its Puts and Deletes, and the waits for compactions before bulk-load batches.
 * Zero everywhere on an idle cluster.
 *
 * @param busyAnswers mutations the region servers answered busy (RegionTooBusyException,
 *     CallQueueTooBigException, a quota) and the job sent again after backing off
 * @param backoffSeconds time the writers waited before sending refused mutations again
 * @param loadBatches bulk-load calls made (one unless a throttle or full regions split the load)
 * @param storeFileWaits times the bulk load waited for compactions to make room in a region
 * @param storeFileWaitSeconds time the bulk load spent waiting for them
 */
public record Pressure(
    long busyAnswers,
    double backoffSeconds,
    int loadBatches,
    int storeFileWaits,
    double storeFileWaitSeconds) {
  /** Nothing held back, nothing loaded. */
  public static final Pressure NONE = new Pressure(0, 0, 0, 0, 0);

  /** What Put writers met. */
  public static Pressure of(WriteStats written) {
    return new Pressure(written.busyAnswers(), written.backoffMillis() / 1000.0, 0, 0, 0);
  }

  /** What a bulk load met. */
  public static Pressure of(BulkLoader.Loaded loaded) {
    return new Pressure(
        0, 0, loaded.batches(), loaded.storeFileWaits(), loaded.storeFileWaitMillis() / 1000.0);
  }

  /** Both together. */
  public Pressure plus(Pressure o) {
    return new Pressure(
        busyAnswers + o.busyAnswers,
        backoffSeconds + o.backoffSeconds,
        loadBatches + o.loadBatches,
        storeFileWaits + o.storeFileWaits,
        storeFileWaitSeconds + o.storeFileWaitSeconds);
  }

  /** Whether the cluster held anything back. */
  public boolean heldBack() {
    return busyAnswers > 0 || storeFileWaits > 0;
  }

  /** One line for the summary, empty when nothing was held back. */
  public String line() {
    StringBuilder s = new StringBuilder();
    if (busyAnswers > 0) {
      s.append(
          String.format(
              "region servers answered busy to %d writes; the job backed off %.1f s and slowed"
                  + " down",
              busyAnswers, backoffSeconds));
    }
    if (storeFileWaits > 0) {
      s.append(s.isEmpty() ? "" : "; ")
          .append(
              String.format(
                  "the bulk load waited %.1f s for compactions (%d time(s)) so no region passed"
                      + " its blocking store-file count, in %d batches",
                  storeFileWaitSeconds, storeFileWaits, loadBatches));
    }
    return s.toString();
  }
}
