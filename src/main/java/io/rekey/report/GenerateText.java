package io.rekey.report;

import io.rekey.common.Sizes;
import io.rekey.generate.GenerateResult;
import java.time.Instant;

/** The human-readable form of a {@link GenerateResult}. */
public final class GenerateText {
  private GenerateText() {}

  public static String render(GenerateResult r) {
    if (r.skippedNonEmpty()) {
      return "generate: " + r.table() + " already holds rows; wrote nothing (--if-nonempty skip)\n";
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "generate: wrote %,d rows, %,d cells, %s of values into %s%s in %.1f s%n",
            r.rows(),
            r.cells(),
            Sizes.human(r.valueBytes()),
            r.table(),
            r.createdTable() ? " (created: family m, one region, no compression)" : "",
            r.seconds()));
    out.append(
        String.format(
            "  row keys <epoch-millis>_<sender>_<message-id>, from %s to %s%n",
            r.firstKey(), r.lastKey()));
    out.append(
        String.format(
            "  message times %s .. %s%n",
            Instant.ofEpochMilli(r.firstTimestamp()), Instant.ofEpochMilli(r.lastTimestamp())));
    if (r.rowsDeleted() > 0) {
      out.append(String.format("  then deleted the first %,d rows%n", r.rowsDeleted()));
    }
    out.append("  busiest senders:");
    r.topSenders().stream()
        .limit(5)
        .forEach(s -> out.append(String.format(" %s (%,d)", s.sender(), s.messages())));
    out.append('\n');
    return out.toString();
  }
}
