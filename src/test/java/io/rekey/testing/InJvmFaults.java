package io.rekey.testing;

import io.rekey.spark.Faults;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Faults for tests whose writer tasks run in the test's own JVM (Spark {@code local}): the test's
 * action, with whatever latches and lists it records into, stays in this JVM, and what travels with
 * the tasks is a handle that finds it by id. {@link #clear} disarms every action, so a job run
 * again after a fault runs clean.
 */
public final class InJvmFaults implements Faults {
  /** What a test runs at a point: {@link Faults#at}, without having to be serializable. */
  @FunctionalInterface
  public interface Action {
    void run(Point point, int partition, int attempt) throws Exception;
  }

  private static final Map<String, Action> ARMED = new ConcurrentHashMap<>();

  private final String id;

  private InJvmFaults(String id) {
    this.id = id;
  }

  /** Faults that run {@code action} until {@link #clear}. */
  public static Faults of(Action action) {
    String id = UUID.randomUUID().toString();
    ARMED.put(id, action);
    return new InJvmFaults(id);
  }

  /** Disarms every action armed so far. */
  public static void clear() {
    ARMED.clear();
  }

  @Override
  public void at(Point point, int partition, int attempt) throws Exception {
    Action action = ARMED.get(id);
    if (action != null) {
      action.run(point, partition, attempt);
    }
  }
}
