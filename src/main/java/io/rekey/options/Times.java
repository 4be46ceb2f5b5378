package io.rekey.options;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Points in time as options take them: epoch millis, or an ISO-8601 instant. */
public final class Times {
  private Times() {}

  /**
   * @throws InvalidOptionException naming {@code option} when {@code text} is neither
   */
  public static long parse(String option, String text) {
    String t = text.trim();
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException e) {
      try {
        return Instant.parse(t).toEpochMilli();
      } catch (DateTimeParseException e2) {
        throw InvalidOptionException.of(
            option,
            text,
            "is neither a number (epoch millis) nor an ISO-8601 instant (2026-01-01T00:00:00Z)");
      }
    }
  }
}
