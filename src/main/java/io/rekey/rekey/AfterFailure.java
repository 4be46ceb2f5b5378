package io.rekey.rekey;

/**
 * What a rekey run that failed leaves behind, decided from the state its manifest reached: the
 * snapshot stays when the same command can resume from the written HFiles (and must verify against
 * the same point in time) or when the user asked to keep it; a target the run created goes when
 * nothing was loaded into it and it holds no rows. Everything else stays as it is.
 */
final class AfterFailure {
  private AfterFailure() {}

  /** What becomes of the run's snapshot. */
  enum Snapshot {
    /** There is none (a live scan, or not taken yet). */
    NONE,
    /** Kept: the run's HFiles are written, and the same command loads and verifies against it. */
    KEEP_TO_RESUME,
    /** Kept: {@code --keep-snapshot}. */
    KEEP_AS_ASKED,
    /** Deleted, with its restore directory. */
    DELETE
  }

  /**
   * @param state the state the run's manifest reached, or null when it wrote none
   * @param exists whether the snapshot exists
   */
  static Snapshot snapshot(RunManifest.State state, boolean exists, boolean keepSnapshot) {
    if (!exists) {
      return Snapshot.NONE;
    }
    if (state == RunManifest.State.WRITTEN) {
      return Snapshot.KEEP_TO_RESUME;
    }
    return keepSnapshot ? Snapshot.KEEP_AS_ASKED : Snapshot.DELETE;
  }

  /**
   * Whether to drop the target: only one this run created, into which nothing was loaded, and which
   * holds no rows (a concurrent writer's rows are never dropped).
   *
   * @param created whether the plan created the target
   * @param existsEmpty whether the target exists and holds no rows (asked only when the rest holds)
   */
  static boolean dropTarget(
      RunManifest.State state, boolean created, java.util.function.BooleanSupplier existsEmpty) {
    boolean nothingLoaded =
        state == null || state == RunManifest.State.STARTED || state == RunManifest.State.REFUSED;
    return created && nothingLoaded && existsEmpty.getAsBoolean();
  }
}
