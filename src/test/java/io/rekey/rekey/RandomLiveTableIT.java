package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Randomized live migrations ({@link RandomLiveTable}), 12 seeds in the default suite (one wave; it
 * ran 24, two waves, until CI's hour grew tight); the long tier runs 48 more ({@code
 * RandomLiveTableLongIT}). {@code -Drekey.random.seed=N} reruns one case; {@code
 * -Drekey.random.cases=N} runs N seeds instead (a soak: about 5.5 s a case here, bound by the
 * master, which takes one snapshot at a time; one test method, so about 100 fit the ITs' 10-minute
 * limit; a longer soak is several runs, each from its own {@code -Drekey.random.first=SEED}).
 */
class RandomLiveTableIT extends OnMiniCluster {
  static final int CASES = 12;

  /** Cases run at once: each spends most of its time waiting (safety lags, compactions, RPCs). */
  static final int AT_ONCE = 12;

  /**
   * Runs {@code cases} seeds from {@code first} ({@link #AT_ONCE} at a time, each on tables of its
   * own; {@code -Drekey.random.cases} overrides the count), or the one seed {@code
   * -Drekey.random.seed} names; returns the steps taken, summed.
   */
  static Map<RandomLiveTable.Step, Integer> cases(long first, int cases) throws Exception {
    cases = Integer.getInteger("rekey.random.cases", cases);
    first = Long.getLong("rekey.random.first", first);
    String one = System.getProperty("rekey.random.seed");
    List<Long> seeds = new ArrayList<>();
    for (int i = 0; i < (one == null ? cases : 1); i++) {
      // Not SplittableRandom's own gamma as the stride: seeds that far apart give one sequence,
      // shifted.
      seeds.add(one == null ? first + i * 1_000_003L : Long.parseLong(one));
    }
    ExecutorService pool = Executors.newFixedThreadPool(AT_ONCE);
    try {
      List<Future<Map<RandomLiveTable.Step, Integer>>> running = new ArrayList<>();
      for (long seed : seeds) {
        running.add(pool.submit(() -> new RandomLiveTable(seed).run()));
      }
      Map<RandomLiveTable.Step, Integer> all = new EnumMap<>(RandomLiveTable.Step.class);
      for (Future<Map<RandomLiveTable.Step, Integer>> f : running) {
        try {
          f.get().forEach((k, v) -> all.merge(k, v, Integer::sum));
        } catch (ExecutionException e) {
          throw e.getCause() instanceof AssertionError a ? a : new AssertionError(e.getCause());
        }
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void everyVerdictOfARandomLiveMigrationIsTrue() throws Exception {
    Map<RandomLiveTable.Step, Integer> steps = cases(0x52L, CASES);
    // The cases took the kinds of change that matter most (a tally, not a timing).
    assertThat(steps.keySet()).hasSizeGreaterThan(8);
  }
}
