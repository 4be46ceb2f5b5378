package io.rekey.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdaptiveRateTest {
  private long now;

  private AdaptiveRate rate(double ceiling) {
    now = 0;
    return new AdaptiveRate(ceiling, () -> now);
  }

  @Test
  void aCeilingIsHalvedOnEachBusyAnswerAndGrowsBackOnlyAfterACalmInterval() {
    AdaptiveRate r = rate(1000);
    assertThat(r.rate()).isEqualTo(1000);
    r.busy();
    assertThat(r.rate()).isEqualTo(500);
    r.busy();
    assertThat(r.rate()).isEqualTo(250);
    now += AdaptiveRate.CALM_NANOS / 2;
    r.calm();
    assertThat(r.rate()).as("not calm long enough").isEqualTo(250);
    now += AdaptiveRate.CALM_NANOS;
    r.calm();
    assertThat(r.rate()).isEqualTo(375);
    r.calm();
    assertThat(r.rate()).as("one raise per calm interval").isEqualTo(375);
    for (int i = 0; i < 5; i++) {
      now += AdaptiveRate.CALM_NANOS;
      r.calm();
    }
    assertThat(r.rate()).isEqualTo(1000);
  }

  @Test
  void withoutACeilingTheFirstBusyAnswerHalvesThePaceSoFarAndCalmLiftsTheLimitAgain() {
    AdaptiveRate r = rate(0);
    r.acquire(8000);
    now += 2_000_000_000L;
    assertThat(r.rate()).as("no limit yet").isZero();
    r.busy();
    assertThat(r.rate()).as("half of 4000 per second").isEqualTo(2000);
    now += AdaptiveRate.CALM_NANOS;
    r.calm();
    assertThat(r.rate()).isEqualTo(3000);
    now += AdaptiveRate.CALM_NANOS;
    r.calm();
    assertThat(r.rate()).as("4500 is past the pace it had: no limit").isZero();
  }

  @Test
  void theRateNeverFallsBelowTheFloorAndBackOffsDoubleUpToTheirCap() {
    AdaptiveRate r = rate(40);
    assertThat(r.busy()).isEqualTo(AdaptiveRate.FIRST_BACKOFF_MS);
    assertThat(r.busy()).isEqualTo(2 * AdaptiveRate.FIRST_BACKOFF_MS);
    assertThat(r.rate()).isEqualTo(AdaptiveRate.FLOOR);
    long last = 0;
    for (int i = 0; i < 20; i++) {
      last = r.busy();
    }
    assertThat(last).isEqualTo(AdaptiveRate.MAX_BACKOFF_MS);
    assertThat(r.rate()).isEqualTo(AdaptiveRate.FLOOR);
    r.calm();
    assertThat(r.busy()).as("a calm answer resets the back-off").isEqualTo(200);
  }
}
