package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.LongTier;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** More seeds of {@link RandomLiveTableIT}'s randomized live migrations, in the long tier. */
@LongTier
class RandomLiveTableLongIT extends OnMiniCluster {
  static final int CASES = 48;

  @Test
  void everyVerdictOfManyRandomLiveMigrationsIsTrue() throws Exception {
    Map<RandomLiveTable.Step, Integer> steps = RandomLiveTableIT.cases(0x5200L, CASES);
    assertThat(steps.keySet()).containsAll(java.util.EnumSet.allOf(RandomLiveTable.Step.class));
  }
}
