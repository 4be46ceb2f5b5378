package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.verify.UnmappedRows;
import io.rekey.verify.VerifyResult;
import io.rekey.write.Pressure;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The switch decision, one condition at a time, with no cluster: a final sync may say "switch" only
 * when every condition holds, and each one that fails refuses in its own words. {@code SyncIT} and
 * the random live-table ITs reach the same verdicts on a mini cluster.
 */
class SwitchVerdictTest {
  static final long STOP = 1_767_225_600_000L;

  /** A final run whose comparison matched everything: the one case that may switch. */
  static final Run CLEAN = new Run(true, null, 0, verify(true, 0, 0, 0, 0), null, null, false);

  record Run(
      boolean finalRun,
      String sourceChanged,
      long writtenAfterStop,
      VerifyResult verify,
      RepairResult repair,
      Long acceptedUnmapped,
      boolean mergeAllowed) {
    SyncResult result() {
      return new SyncResult(
          "src",
          "dst",
          finalRun,
          STOP - 60_000,
          STOP,
          STOP,
          5_000,
          false,
          List.of(),
          SyncStats.ZERO,
          "",
          List.of(),
          verify,
          repair,
          writtenAfterStop,
          writtenAfterStop > 0 ? "row9" : null,
          sourceChanged,
          acceptedUnmapped,
          mergeAllowed,
          0,
          List.of(),
          Pressure.NONE,
          1.0);
    }
  }

  static VerifyResult verify(
      boolean matches, int differing, long changed, long merged, long unmapped) {
    UnmappedRows rows =
        unmapped == 0
            ? UnmappedRows.NONE
            : new UnmappedRows(
                unmapped,
                new TreeMap<>(java.util.Map.of("no user", unmapped)),
                List.of("k1 no user: -"));
    return new VerifyResult(
        matches,
        100,
        matches ? 100 : 99,
        4,
        List.of(),
        differing,
        rows,
        changed,
        changed > 0 ? List.of("t1") : List.of(),
        merged,
        merged > 0 ? List.of("m1") : List.of(),
        1.0);
  }

  static RepairResult repair(long masked, VerifyResult after) {
    return new RepairResult(
        "src",
        "dst",
        false,
        STOP,
        1,
        0,
        0,
        0,
        1,
        0,
        masked,
        1,
        List.of(),
        masked > 0 ? "r1/d:q/5" : null,
        after,
        Pressure.NONE,
        1.0,
        2.0);
  }

  @Test
  void aFinalRunWhoseComparisonMatchedEverythingMaySwitch() {
    assertThat(SwitchVerdict.refusal(CLEAN.result())).isEmpty();
    assertThat(CLEAN.result().switchSafe()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not final | only 'rekey sync --final'",
        "source changed | region r1 served 3 writes; do not switch",
        "written after stop | 2 source rows hold cells stamped at or after 2026-01-01T00:00:00Z (first: row9): writers have not stopped",
        "no comparison | the final run compared nothing",
        "differs, no repair | the final comparison found 2 target region(s) that differ from the source below 2026-01-01T00:00:00Z (listed above): do not switch yet. A write stamped before the watermark",
        "differs after repair | The source changed while the repair ran: run it again",
        "masked after repair | 7 cells are hidden in dst by its own delete markers",
        "merged | 3 target keys hold the cells of two or more source rows (first: m1)",
        "changed after stop | 4 target rows hold cells stamped at or after --writes-stopped-at (first: t1)",
        "unmapped | every mapped row matches, but ",
      })
  void everyConditionThatFailsRefusesInItsOwnWords(String condition, String words) {
    Run run =
        switch (condition) {
          case "not final" -> new Run(false, null, 0, CLEAN.verify(), null, null, false);
          case "source changed" ->
              new Run(true, "region r1 served 3 writes", 0, CLEAN.verify(), null, null, false);
          case "written after stop" -> new Run(true, null, 2, CLEAN.verify(), null, null, false);
          case "no comparison" -> new Run(true, null, 0, null, null, null, false);
          case "differs, no repair" ->
              new Run(true, null, 0, verify(false, 2, 0, 0, 0), null, null, false);
          case "differs after repair" ->
              new Run(
                  true,
                  null,
                  0,
                  verify(false, 2, 0, 0, 0),
                  repair(0, verify(false, 1, 0, 0, 0)),
                  null,
                  false);
          case "masked after repair" ->
              new Run(
                  true,
                  null,
                  0,
                  verify(false, 2, 0, 0, 0),
                  repair(7, verify(false, 1, 0, 0, 0)),
                  null,
                  false);
          case "merged" -> new Run(true, null, 0, verify(true, 0, 0, 3, 0), null, null, false);
          case "changed after stop" ->
              new Run(true, null, 0, verify(true, 0, 4, 0, 0), null, null, false);
          case "unmapped" -> new Run(true, null, 0, verify(true, 0, 0, 0, 5), null, null, false);
          default -> throw new IllegalArgumentException(condition);
        };
    SyncResult result = run.result();
    assertThat(SwitchVerdict.refusal(result))
        .hasValueSatisfying(line -> assertThat(line).contains(words));
    assertThat(result.switchSafe()).isFalse();
  }

  @Test
  void whatTheOperatorAllowedOrAcknowledgedNoLongerRefuses() {
    assertThat(
            SwitchVerdict.refusal(
                new Run(true, null, 0, verify(true, 0, 0, 3, 0), null, null, true).result()))
        .isEmpty();
    assertThat(
            SwitchVerdict.refusal(
                new Run(true, null, 0, verify(true, 0, 0, 0, 5), null, 5L, false).result()))
        .isEmpty();
    // Acknowledging a different number of unmapped rows than there are is no acknowledgement.
    assertThat(
            SwitchVerdict.refusal(
                new Run(true, null, 0, verify(true, 0, 0, 0, 5), null, 4L, false).result()))
        .isPresent();
  }

  @Test
  void aRepairsOwnComparisonIsTheLastWord() {
    VerifyResult before = verify(false, 2, 0, 0, 0);
    Run repaired = new Run(true, null, 0, before, repair(0, verify(true, 0, 0, 0, 0)), null, false);
    assertThat(SwitchVerdict.refusal(repaired.result())).isEmpty();
    Run repairWithoutVerify = new Run(true, null, 0, before, repair(0, null), null, false);
    assertThat(SwitchVerdict.refusal(repairWithoutVerify.result()))
        .hasValueSatisfying(line -> assertThat(line).contains("found 2 target region(s)"));
  }
}
