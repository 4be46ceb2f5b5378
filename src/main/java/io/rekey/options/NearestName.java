package io.rekey.options;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * The known name a mistyped one most likely meant, for "did you mean" hints on unknown options,
 * job-file keys and commands. A name counts as meant when it starts with what was typed (an
 * abbreviation) or lies within a third of its length in edits (two at least): far enough for a
 * transposition or a missing word part, near enough not to suggest an unrelated option.
 */
public final class NearestName {
  private NearestName() {}

  /** The nearest of {@code known} to {@code typed}, or empty when none is near. */
  public static Optional<String> of(String typed, Collection<String> known) {
    String t = typed.toLowerCase(java.util.Locale.ROOT);
    int bound = Math.max(2, t.length() / 3);
    LevenshteinDistance distance = new LevenshteinDistance(bound);
    Optional<String> abbreviation =
        known.stream()
            .filter(k -> t.length() >= 3 && k.startsWith(t))
            .min(Comparator.comparingInt(String::length));
    if (abbreviation.isPresent()) {
      return abbreviation;
    }
    return known.stream()
        .filter(k -> distance.apply(t, k) >= 0)
        .min(Comparator.comparingInt((String k) -> distance.apply(t, k)).thenComparing(k -> k));
  }

  /** {@code " (did you mean PREFIXname?)"} for the nearest known name, or empty text. */
  public static String hint(String typed, Collection<String> known, String prefix) {
    return of(typed, known).map(k -> " (did you mean " + prefix + k + "?)").orElse("");
  }
}
