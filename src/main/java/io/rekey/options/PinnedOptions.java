package io.rekey.options;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a table that jobs keep writing was first written with, as option names and values (a
 * migration's key mapping, an index's definition), so that a later run with another can be refused
 * before it writes or judges the table through it. Stored as text, one {@code option=value} a line.
 */
public record PinnedOptions(Map<String, String> values) {
  public PinnedOptions {
    values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** As stored. */
  public String text() {
    StringBuilder out = new StringBuilder();
    values.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
    return out.toString();
  }

  /** Parses {@link #text()}; an empty pin for null. */
  public static PinnedOptions parse(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    if (text != null) {
      for (String line : text.split("\n")) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          out.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }
    return new PinnedOptions(out);
  }

  /**
   * Refuses these values when the table was written with others. Options the pin does not name
   * (pinned before they were) are not compared; nothing pinned (null) refuses nothing.
   *
   * @param pinned the stored text, or null
   * @param what the table and how it was written, for the message ("ns:t was copied with")
   * @param command what is refused, for the message
   * @param wayOut how to change what is pinned, for the message
   * @throws InvalidOptionException naming the first option that differs, both values and the way
   *     out
   */
  public void requireSame(String pinned, String what, String command, String wayOut) {
    Map<String, String> was = parse(pinned).values();
    for (Map.Entry<String, String> e : values.entrySet()) {
      String before = was.get(e.getKey());
      if (before != null && !before.equals(e.getValue())) {
        throw InvalidOptionException.of(
            e.getKey(),
            e.getValue(),
            "differs from what "
                + what
                + " ("
                + before
                + "): "
                + command
                + " must use the same, or it writes or judges the table through another. "
                + wayOut);
      }
    }
  }
}
