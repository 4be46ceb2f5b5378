package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.rekey.AfterFailure.Snapshot;
import io.rekey.rekey.RunManifest.State;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a failed rekey keeps and removes, for every state its manifest can reach. {@code
 * RekeyRefusalsIT} and {@code DriverKillIT} fail real runs and look at the snapshot and the target.
 */
class AfterFailureTest {
  @ParameterizedTest(name = "manifest {0}, snapshot exists {1}, --keep-snapshot {2}: {3}")
  @CsvSource(
      nullValues = "none",
      value = {
        "none,    true,  false, DELETE",
        "STARTED, true,  false, DELETE",
        "REFUSED, true,  false, DELETE",
        "LOADED,  true,  false, DELETE",
        "WRITTEN, true,  false, KEEP_TO_RESUME",
        "WRITTEN, true,  true,  KEEP_TO_RESUME",
        "STARTED, true,  true,  KEEP_AS_ASKED",
        "none,    true,  true,  KEEP_AS_ASKED",
        "STARTED, false, false, NONE",
        "WRITTEN, false, true,  NONE",
      })
  void theSnapshotStaysOnlyForAResumeOrWhenAskedFor(
      State state, boolean exists, boolean keep, Snapshot fate) {
    assertThat(AfterFailure.snapshot(state, exists, keep)).isEqualTo(fate);
  }

  @ParameterizedTest(name = "manifest {0}, created {1}, exists and empty {2}: drop {3}")
  @CsvSource(
      nullValues = "none",
      value = {
        "none,    true,  true,  true",
        "STARTED, true,  true,  true",
        "REFUSED, true,  true,  true",
        "WRITTEN, true,  true,  false",
        "LOADED,  true,  true,  false",
        "STARTED, false, true,  false",
        "STARTED, true,  false, false",
      })
  void onlyAnEmptyTargetTheRunCreatedAndLoadedNothingIntoIsDropped(
      State state, boolean created, boolean existsEmpty, boolean drop) {
    assertThat(AfterFailure.dropTarget(state, created, () -> existsEmpty)).isEqualTo(drop);
  }

  @Test
  void theTargetIsNotReadWhenTheRunDidNotCreateItOrLoadedIntoIt() {
    AtomicBoolean asked = new AtomicBoolean();
    AfterFailure.dropTarget(State.LOADED, true, () -> asked.getAndSet(true));
    AfterFailure.dropTarget(State.STARTED, false, () -> asked.getAndSet(true));
    assertThat(asked).isFalse();
  }
}
