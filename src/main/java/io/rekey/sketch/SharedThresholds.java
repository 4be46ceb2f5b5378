package io.rekey.sketch;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lowest pruning threshold that any task of one audit has reached for one sample, shared by the
 * tasks that run in the same JVM. A task that has kept {@code k} items with hashes below {@code t}
 * proves that no item hashing {@code t} or more is in the merged sample, so the other tasks may
 * drop such items at once instead of encoding and pruning them: later tasks start with the
 * threshold the earlier ones reached. The merged sample is exactly what it would be without.
 */
public final class SharedThresholds {
  // A few entries per audit: the eldest go, so an executor that runs scheduled audits for months
  // keeps a bounded map.
  private static final int KEPT = 256;

  private static final Map<String, AtomicLong> BY_SAMPLE =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, AtomicLong> eldest) {
          return size() > KEPT;
        }
      };

  private SharedThresholds() {}

  /** The shared threshold of {@code sample} (an audit run and which sample), created unset. */
  public static AtomicLong of(String sample) {
    synchronized (BY_SAMPLE) {
      return BY_SAMPLE.computeIfAbsent(sample, s -> new AtomicLong(Long.MAX_VALUE));
    }
  }
}
