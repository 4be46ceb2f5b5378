package io.rekey.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scrutiny's rules, one row a case: what an entry is, given both sides and the watermark (100). */
class ScrutinyKindTest {
  private static final long WATERMARK = 100;

  @ParameterizedTest(name = "expected {0} from a row at {1}, present {2}: {3}")
  @CsvSource({
    // expected covers, its source row's newest cell, present covers, kind
    "a, 50, a, VALID",
    "a, 150, a, VALID",
    "a, 50, b, STALE",
    "a, 99, b, STALE",
    "a, 100, b, PENDING",
    "a, 150, b, PENDING",
    "'', 50, '', VALID",
    "'', 50, b, STALE",
  })
  void anEntryOnBothSides(String want, long sourceTs, String have, ScrutinyKind kind) {
    assertThat(
            ScrutinyKind.ofBoth(
                new ScrutinyEntry(40, want, sourceTs), new ScrutinyEntry(40, have, 0), WATERMARK))
        .isEqualTo(kind);
  }

  @ParameterizedTest(name = "expected at {0} from a row at {1}, absent: {2}")
  @CsvSource({
    "40, 50, MISSING",
    "99, 99, MISSING",
    "100, 50, PENDING",
    "40, 100, PENDING",
    "150, 150, PENDING",
  })
  void anEntryExpectedOnly(long ts, long sourceTs, ScrutinyKind kind) {
    assertThat(ScrutinyKind.ofExpectedOnly(new ScrutinyEntry(ts, "", sourceTs), WATERMARK))
        .isEqualTo(kind);
  }

  @ParameterizedTest(name = "present only, its source row's newest cell at {0}: {1}")
  @CsvSource({
    ", ORPHAN", // no source row
    "50, INVALID",
    "99, INVALID",
    "100, PENDING",
    "150, PENDING",
  })
  void anEntryPresentOnly(Long sourceNewest, ScrutinyKind kind) {
    assertThat(ScrutinyKind.ofUnexpected(sourceNewest, WATERMARK)).isEqualTo(kind);
  }

  @ParameterizedTest
  @CsvSource({"missing, MISSING", "stale, STALE", "untracked, UNTRACKED", "foreign, FOREIGN"})
  void labelsAreTheResultsNamesAndReadBack(String label, ScrutinyKind kind) {
    assertThat(kind.label()).isEqualTo(label);
    assertThat(ScrutinyKind.of(label)).isEqualTo(kind);
  }
}
