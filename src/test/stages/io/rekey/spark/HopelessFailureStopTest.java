package io.rekey.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.testing.StageTest;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** On the stage tests' local Spark, which tries a failed task four times as a cluster would. */
class HopelessFailureStopTest extends StageTest {
  private static final AtomicInteger ATTEMPTS = new AtomicInteger();

  @Test
  void theFirstHopelessFailureStopsTheJobInsteadOfItsRetries() {
    JavaSparkContext sc = jsc();
    HopelessFailureStop stop =
        new HopelessFailureStop(
            sc.sc(),
            text ->
                text.contains("Token has expired")
                    ? Optional.of("Token has expired")
                    : Optional.empty());
    sc.sc().addSparkListener(stop);
    try {
      ATTEMPTS.set(0);
      assertThatThrownBy(() -> failing(sc, "Token has expired, current time: now"))
          .hasMessageContaining("cancelled because Token has expired");
      // The listener hears of a failure after Spark has resubmitted the task: one retry at most.
      assertThat(ATTEMPTS.get()).isBetween(1, 2);

      // A failure a retry may cure is left to Spark's retries.
      ATTEMPTS.set(0);
      assertThatThrownBy(() -> failing(sc, "Connection reset by peer"))
          .hasMessageContaining("failed 4 times");
      assertThat(ATTEMPTS.get()).isEqualTo(4);
    } finally {
      sc.sc().removeSparkListener(stop);
    }
  }

  /** A one-task job whose every attempt fails with {@code message} after a second. */
  private static void failing(JavaSparkContext sc, String message) {
    sc.parallelize(List.of(1), 1)
        .foreach(
            x -> {
              ATTEMPTS.incrementAndGet();
              Thread.sleep(1000);
              throw new IllegalStateException(message);
            });
  }
}
