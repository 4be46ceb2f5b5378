package io.rekey.report;

import io.rekey.rekey.RepairResult;
import java.time.Instant;

/** The human-readable form of a repair's result. */
public final class RepairText {
  private RepairText() {}

  /** What a {@code rekey repair} (or a final sync's repair) compared, wrote and verified. */
  public static String repair(RepairResult r) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "rekey repair%s: %s -> %s%s%n",
            r.dryRun() ? " --dry-run" : "",
            r.source(),
            r.target(),
            r.until() == null ? "" : " (cells below " + Instant.ofEpochMilli(r.until()) + ")"));
    out.append(
        String.format(
            "  compared       row by row through the key mapping in %.1f s: %,d target rows"
                + " differ (%,d missing, %,d different, %,d extra: deleted in the source or moved"
                + " away)%n",
            r.compareSeconds(),
            r.rowsDiffering(),
            r.rowsMissing(),
            r.rowsDifferent(),
            r.rowsExtra()));
    for (String e : r.examples()) {
      out.append("      ").append(e).append('\n');
    }
    if (r.rowsChangedSince() > 0) {
      out.append(
          String.format(
              "  left alone     %,d target rows changed at or after %s on either side (they cannot"
                  + " be read as of then); a later repair or sync takes them%n",
              r.rowsChangedSince(), Instant.ofEpochMilli(r.until())));
    }
    out.append(
        String.format(
            "  %s %,d cells as Puts with their own timestamps, %,d deleted exactly%s%n",
            r.dryRun() ? "would write  " : "wrote        ",
            r.cellsPut(),
            r.cellsDeleted(),
            r.dryRun() ? " (--dry-run: nothing written)" : ""));
    if (r.pressure().heldBack()) {
      out.append("  held back      ").append(r.pressure().line()).append('\n');
    }
    if (r.cellsMasked() > 0) {
      out.append("  cannot write   ").append(r.maskedLine()).append('\n');
    }
    if (!r.dryRun()) {
      out.append(VerifyText.verify(r.verify()));
    }
    out.append(String.format("  took           %.1f s%n", r.seconds()));
    return out.toString();
  }
}
