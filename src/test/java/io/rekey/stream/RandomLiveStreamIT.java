package io.rekey.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.run.RunState;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Randomized live migrations through streams ({@link RandomLiveStream}), several streams at once on
 * one cluster, in the long tier: {@value #CASES} whose new key is made from the row key, then
 * {@value #BOUND_CASES} whose key is bound to a column. {@code -Drekey.random.seed=N} reruns one
 * case (with {@code -Drekey.random.bound=true} a bound one); {@code -Drekey.random.cases=N} runs N
 * row-key seeds.
 */
@LongTier
@ExtendWith(MiniHBase.class)
class RandomLiveStreamIT {
  static final int CASES = 4;

  /** Cases after the row-key ones whose new key is bound to a column (rows move). */
  static final int BOUND_CASES = 2;

  /**
   * The first seed: with the three after it, every kind of step, and a backfill hidden under a
   * marker the source compacted away (seed 0x4c4ba3), whose refusal and remedy the case checks.
   */
  static final long FIRST = 0x54L + 3 * 1_000_003L;

  static final int AT_ONCE = 6;

  @Test
  void everySwitchOfARandomLiveStreamIsTrue() throws Exception {
    TableName state = TableName.valueOf("rs_state");
    new RunState(MiniHBase.util().getConnection(), state, state).ensureTable();
    int cases = Integer.getInteger("rekey.random.cases", CASES);
    String one = System.getProperty("rekey.random.seed");
    boolean oneBound = Boolean.getBoolean("rekey.random.bound");
    List<Long> seeds = new ArrayList<>();
    for (int i = 0; i < (one == null ? cases + BOUND_CASES : 1); i++) {
      seeds.add(one == null ? FIRST + i * 1_000_003L : Long.parseLong(one));
    }
    ExecutorService pool = Executors.newFixedThreadPool(AT_ONCE);
    Map<RandomLiveStream.Step, Integer> all = new EnumMap<>(RandomLiveStream.Step.class);
    try {
      List<Future<Map<RandomLiveStream.Step, Integer>>> running = new ArrayList<>();
      for (int i = 0; i < seeds.size(); i++) {
        long seed = seeds.get(i);
        boolean bound = one == null ? i >= cases : oneBound;
        running.add(pool.submit(() -> new RandomLiveStream(seed, state, bound).run()));
      }
      for (Future<Map<RandomLiveStream.Step, Integer>> f : running) {
        try {
          f.get().forEach((k, v) -> all.merge(k, v, Integer::sum));
        } catch (ExecutionException e) {
          throw e.getCause() instanceof AssertionError a ? a : new AssertionError(e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    // The cases took every kind of change (a tally, not a timing).
    if (one == null && cases == CASES) {
      assertThat(all.keySet()).containsAll(java.util.EnumSet.allOf(RandomLiveStream.Step.class));
    }
  }
}
