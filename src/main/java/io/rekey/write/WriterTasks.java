package io.rekey.write;

/** How many writer tasks share a target region: a decision of the plan, apart from Spark. */
public final class WriterTasks {
  private WriterTasks() {}

  /**
   * Writer tasks per region when the user does not say: enough that every core has two tasks, so a
   * hot region is not one slow task, and at most 16.
   */
  public static int perRegion(int cores, int regions) {
    return Math.max(1, Math.min(16, (2 * cores + regions - 1) / regions));
  }
}
