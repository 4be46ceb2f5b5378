package io.rekey.verify;

import io.rekey.keys.KeyMapping;
import io.rekey.options.PinnedOptions;
import io.rekey.options.SharedOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/**
 * What a migration's copy wrote its target with, pinned in the state table next to the watermark:
 * the source, both key specs (canonical) and whether delete markers are copied. A sync, repair or
 * verify with another of these would write or judge the target through a mapping it was not written
 * with, so it is refused, naming what differs.
 */
public record MigrationDefinition(String source, String sourceKey, String targetKey, Boolean raw) {
  /**
   * The definition of a migration from {@code source} through {@code mapping}.
   *
   * @param raw whether delete markers are copied; null where it does not matter (a verify, which
   *     may compare raw or not whatever the copy did)
   */
  public static MigrationDefinition of(TableName source, KeyMapping mapping, Boolean raw) {
    return new MigrationDefinition(
        source.getNameAsString(),
        mapping.source().canonicalSpec(),
        mapping.target().canonicalSpec(),
        raw);
  }

  /** As stored: one {@code option=value} per line, each named as its command-line option. */
  public String text() {
    return pinned().text();
  }

  private PinnedOptions pinned() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(SharedOptions.SOURCE.name(), source);
    out.put(SharedOptions.SOURCE_KEY.name(), sourceKey);
    out.put(SharedOptions.TARGET_KEY.name(), targetKey);
    if (raw != null) {
      out.put(SharedOptions.RAW.name(), String.valueOf(raw));
    }
    return new PinnedOptions(out);
  }

  /**
   * Refuses this definition when the target was written with another ({@code pinned}, as {@link
   * #text()} wrote it; null when nothing was pinned, as by copies made before pinning existed).
   *
   * @param target the target, for the message
   * @param command what is refused, for the message
   * @throws io.rekey.options.InvalidOptionException naming the first option that differs, both
   *     values and the way out
   */
  public void requireSame(String pinned, String target, String command) {
    pinned()
        .requireSame(
            pinned,
            target + " was copied with",
            command,
            "Use the copy's job file; to change the layout, start a new migration: rekey into a new"
                + " target");
  }
}
