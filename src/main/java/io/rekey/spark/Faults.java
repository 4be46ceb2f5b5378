package io.rekey.spark;

import java.io.Serializable;

/**
 * Where a fault test breaks a job for real: a writer task attempt that dies halfway through its
 * file, or with its files complete, and a bulk load that dies before an attempt. A job is given its
 * faults in its {@link JobContext}; the command line always gives {@link #NONE}, and no option,
 * setting or environment variable can give another. Writer tasks receive the faults serialized with
 * the stage, so an implementation that runs there must be serializable and keep whatever it records
 * outside itself.
 */
@FunctionalInterface
public interface Faults extends Serializable {
  /** A point in the write engine where a fault can be injected. */
  enum Point {
    /** In a writer task, once its first row is appended: its file is partly written. */
    WRITER_MIDFILE,
    /**
     * In a writer task, with every file written and closed, before it returns: the attempt ends
     * with complete files that are not its partition's accepted ones (as a speculative copy's).
     */
    WRITER_FINISHED,
    /** On the driver, before each bulk load attempt. */
    BEFORE_LOAD
  }

  /** No fault anywhere: what every job run from the command line has. */
  Faults NONE = (point, partition, attempt) -> {};

  /**
   * Runs at {@code point}; throws to fail there.
   *
   * @param partition the writer partition, or -1 on the driver
   * @param attempt the task attempt number (0 for the first), or the load attempt (1 for the first)
   *     on the driver
   */
  void at(Point point, int partition, int attempt) throws Exception;

  /** Runs {@link #at}, passing its runtime exceptions on and wrapping the others. */
  default void inject(Point point, int partition, int attempt) {
    try {
      at(point, partition, attempt);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("injected fault at " + point, e);
    }
  }
}
