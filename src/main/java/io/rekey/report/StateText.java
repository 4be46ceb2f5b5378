package io.rekey.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.run.RunRecord;
import io.rekey.run.TableState;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The human-readable form of a table's state ({@code hbase-rekey state}). */
public final class StateText {
  /** The fields every history line starts with ({@link RunRecord}), shown in the run's columns. */
  private static final Set<String> HEAD =
      Stream.concat(
              Arrays.stream(RunRecord.class.getRecordComponents()).map(RecordComponent::getName),
              Stream.of("message"))
          .collect(Collectors.toUnmodifiableSet());

  private StateText() {}

  public static String render(TableState s) {
    StringBuilder out = new StringBuilder();
    out.append(s.table()).append(" (state in ").append(s.stateTable()).append(")\n");
    out.append("  written with  ")
        .append(s.definition() == null ? "(not recorded)" : s.definition().replace('\n', ' '))
        .append('\n');
    out.append("  watermark     ");
    if (s.watermark() == null) {
      out.append("none yet: no run has finished a window\n");
    } else {
      out.append(s.watermarkTime())
          .append(" (")
          .append(s.watermark())
          .append("), ")
          .append(duration(s.behindSeconds()))
          .append(" behind now\n");
    }
    out.append("  lock          ");
    if (s.lock() == null) {
      out.append("free\n");
    } else {
      out.append("held for ")
          .append(duration(s.lock().heldSeconds()))
          .append(" by ")
          .append(s.lock().holder())
          .append('\n');
    }
    if (s.runs().isEmpty()) {
      out.append("  runs          none recorded\n");
      return out.toString();
    }
    out.append("  last ").append(s.runs().size()).append(" runs, newest first:\n");
    for (JsonNode run : s.runs()) {
      out.append("    ").append(run(run)).append('\n');
    }
    return out.toString();
  }

  private static String run(JsonNode r) {
    if (r.has("unreadable")) {
      return "(unreadable) " + r.get("unreadable").asText();
    }
    StringBuilder line = new StringBuilder();
    line.append(r.path("started").asText("?"))
        .append("  ")
        .append(r.path("run").asText("?"))
        .append("  ")
        .append(r.path("outcome").asText("?"))
        .append(String.format("  %.1f s", r.path("seconds").asDouble()));
    if (r.hasNonNull("windowFrom") || r.hasNonNull("windowTo")) {
      line.append("  window [")
          .append(time(r.get("windowFrom")))
          .append(", ")
          .append(time(r.get("windowTo")))
          .append(')');
    }
    if (r.hasNonNull("watermarkAfter")
        && !r.path("watermarkAfter").equals(r.path("watermarkBefore"))) {
      line.append("  watermark -> ").append(time(r.get("watermarkAfter")));
    }
    StringBuilder counts = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = r.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (!HEAD.contains(f.getKey()) && f.getValue().isValueNode() && !f.getValue().isNull()) {
        counts.append(counts.isEmpty() ? "" : ", ").append(f.getKey()).append(' ');
        counts.append(f.getValue().asText());
      }
    }
    if (!counts.isEmpty()) {
      line.append("  ").append(counts);
    }
    if (r.hasNonNull("message")) {
      line.append("  ").append(r.get("message").asText());
    }
    return line.toString();
  }

  private static String time(JsonNode millis) {
    return millis == null || millis.isNull()
        ? "-"
        : Instant.ofEpochMilli(millis.asLong()).toString();
  }

  private static String duration(long seconds) {
    Duration d = Duration.ofSeconds(seconds);
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return d.toMinutes() + " min " + d.toSecondsPart() + " s";
    }
    return d.toHours() + " h " + d.toMinutesPart() + " min";
  }
}
