package io.rekey.write;

/**
 * Where the fault tests break the engine for real: a writer task attempt that dies halfway through
 * its file, a bulk load that dies after part of the files. Production code only calls {@link #at};
 * only a test sets a hook, in the same JVM (Spark {@code local} runs tasks there). No option,
 * setting or environment variable reaches it.
 */
public final class FaultHook {
  /** A point in the engine where a fault can be injected. */
  public enum Point {
    /** In a writer task, once its first row is appended: its file is partly written. */
    WRITER_MIDFILE,
    /**
     * In a writer task, with every file written and closed, before it returns: the attempt ends
     * with complete files that are not its partition's accepted ones (as a speculative copy's).
     */
    WRITER_FINISHED,
    /** On the driver, after the committed files are moved into the load directory. */
    AFTER_COMMIT,
    /** On the driver, before each bulk load attempt. */
    BEFORE_LOAD
  }

  /** What a test runs at a point; it throws to fail there. */
  @FunctionalInterface
  public interface Action {
    /**
     * @param partition the writer partition, or -1 on the driver
     * @param attempt the task attempt number (0 for the first), or the load attempt (1 for the
     *     first) on the driver
     */
    void run(Point point, int partition, int attempt) throws Exception;
  }

  private static volatile Action action;

  private FaultHook() {}

  /** Sets (or with null, clears) the hook: tests only. */
  public static void set(Action a) {
    action = a;
  }

  static void at(Point point, int partition, int attempt) {
    Action a = action;
    if (a == null) {
      return;
    }
    try {
      a.run(point, partition, attempt);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("injected fault at " + point, e);
    }
  }
}
