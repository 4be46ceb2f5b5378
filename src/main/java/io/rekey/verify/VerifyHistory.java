package io.rekey.verify;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The last full comparison of a migration's target, as its run history records it: a {@code verify}
 * line ({@link VerifyRunRecord}) or a {@code sync --final} that compared. A switch may trust its
 * fences only over a target proven equal recently, and never after a comparison that found a
 * difference or failed.
 */
public final class VerifyHistory {
  private static final String FINAL_SYNC = "sync --final";

  private VerifyHistory() {}

  /**
   * Why the history does not show a recent match; empty when it does.
   *
   * @param lines the history, newest first (JSON lines)
   * @param target the target, as the line names it
   * @param now the reader's clock, epoch millis
   * @param maxAge how old the last comparison may be
   */
  public static Optional<String> refusal(
      List<String> lines, String target, long now, Duration maxAge) {
    for (String line : lines) {
      JsonNode run = parse(line);
      if (run == null) {
        continue;
      }
      String name = run.path("run").asText();
      String outcome = run.path("outcome").asText();
      boolean verify = name.equals(VerifyRunRecord.RUN);
      boolean finalSync =
          name.equals(FINAL_SYNC) && List.of("verified", "differs", "failed").contains(outcome);
      if (!verify && !finalSync) {
        continue;
      }
      Instant started = Instant.parse(run.path("started").asText());
      long ended = started.toEpochMilli() + Math.round(run.path("seconds").asDouble() * 1000);
      String which =
          "the last comparison of " + target + " ('" + name + "' started " + started + ")";
      if (!outcome.equals(VerifyRunRecord.MATCH) && !outcome.equals("verified")) {
        return Optional.of(
            which
                + " "
                + (outcome.equals("failed") ? "failed" : "found a difference")
                + (run.hasNonNull("message") ? " (" + run.get("message").asText() + ")" : "")
                + ": repair what differs, run 'rekey verify' (live, with --until) until it"
                + " matches, then switch");
      }
      Duration age = Duration.ofMillis(Math.max(0, now - ended));
      if (age.compareTo(maxAge) > 0) {
        return Optional.of(
            which
                + " ended "
                + age.toMinutes()
                + " minutes ago, longer than --max-verify-age "
                + maxAge.toMinutes()
                + " minutes: run 'rekey verify' (live, with --until) again before the switch");
      }
      return Optional.empty();
    }
    return Optional.of(
        "no full comparison of "
            + target
            + " is recorded in its run history: run 'rekey verify' of the migration (live, with"
            + " --until) before the switch, so that the stream is known to have started from an"
            + " equal copy");
  }

  private static JsonNode parse(String line) {
    try {
      return line == null ? null : Json.mapper().readTree(line);
    } catch (IOException e) {
      return null; // a line this reader cannot read says nothing of a comparison
    }
  }
}
