package io.rekey.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a target's run history shows a comparison recent and good enough for a switch. */
class VerifyHistoryTest {
  private static final long NOW = Instant.parse("2026-12-06T12:00:00Z").toEpochMilli();
  private static final Duration DAY = Duration.ofHours(24);

  private static String line(String run, String outcome, String started, String message) {
    return "{\"run\":\""
        + run
        + "\",\"outcome\":\""
        + outcome
        + "\",\"started\":\""
        + started
        + "\",\"seconds\":12.5"
        + (message == null ? "" : ",\"message\":\"" + message + "\"")
        + "}";
  }

  @Test
  void aRecentMatchAfterOtherRunsLetsTheSwitchGoOn() {
    List<String> history =
        List.of(
            line("sync", "done", "2026-12-06T11:50:00Z", null),
            line("verify", "match", "2026-12-06T11:00:00Z", null),
            line("verify", "differs", "2026-12-05T11:00:00Z", "the target differs"));
    assertThat(VerifyHistory.refusal(history, "t", NOW, DAY)).isEmpty();
    assertThat(
            VerifyHistory.refusal(
                List.of(line("sync --final", "verified", "2026-12-06T11:00:00Z", null)),
                "t",
                NOW,
                DAY))
        .isEmpty();
  }

  @Test
  void noComparisonAFailedOrDifferingOneOrAnOldOneRefuses() {
    assertThat(VerifyHistory.refusal(List.of(), "ns:t", NOW, DAY))
        .hasValueSatisfying(l -> assertThat(l).startsWith("no full comparison of ns:t"));
    assertThat(
            VerifyHistory.refusal(
                List.of(
                    line("sync --final", "done", "2026-12-06T11:55:00Z", null),
                    line("verify", "differs", "2026-12-06T11:50:00Z", "2 regions differ"),
                    line("verify", "match", "2026-12-06T11:00:00Z", null)),
                "t",
                NOW,
                DAY))
        .hasValueSatisfying(
            l ->
                assertThat(l).contains("found a difference (2 regions differ)").contains("repair"));
    assertThat(
            VerifyHistory.refusal(
                List.of(line("verify", "failed", "2026-12-06T11:50:00Z", "no HBase")),
                "t",
                NOW,
                DAY))
        .hasValueSatisfying(l -> assertThat(l).contains("failed (no HBase)"));
    assertThat(
            VerifyHistory.refusal(
                List.of(line("verify", "match", "2026-12-04T11:00:00Z", null)), "t", NOW, DAY))
        .hasValueSatisfying(
            l -> assertThat(l).contains("minutes ago, longer than --max-verify-age 1440 minutes"));
  }
}
