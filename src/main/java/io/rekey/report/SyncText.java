package io.rekey.report;

import io.rekey.rekey.SyncResult;
import io.rekey.rekey.SyncStats;
import java.time.Instant;

/** The human-readable form of a {@code rekey sync}'s result, its final verdict included. */
public final class SyncText {
  private SyncText() {}

  /** What a {@code rekey sync} did, window by window, and where it left the watermark. */
  public static String sync(SyncResult r) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "rekey sync%s: %s -> %s%n", r.finalRun() ? " --final" : "", r.source(), r.target()));
    if (r.nothingToDo()) {
      out.append(
          String.format(
              "  nothing to do: the watermark %s is at or past %s%n",
              Instant.ofEpochMilli(r.windowFrom()), Instant.ofEpochMilli(r.windowTo())));
    }
    for (SyncResult.Window w : r.windows()) {
      SyncStats s = w.stats();
      out.append(
          String.format(
              "  window [%s, %s) %s: %,d rows, %,d cells read (%,d delete markers); %,d rows"
                  + " moved (%,d cells under new keys, %,d markers under old ones); %,d rows"
                  + " rejected; %,d cells written in %.1f s%n",
              Instant.ofEpochMilli(w.from()),
              Instant.ofEpochMilli(w.to()),
              w.write(),
              s.rowsRead(),
              s.cellsRead(),
              s.deletesRead(),
              s.rowsMoved(),
              s.cellsMoved(),
              s.cellsRetired(),
              s.rowsRejected(),
              w.cellsWritten(),
              w.seconds()));
      if (w.stored() != null) {
        out.append("      in the store ").append(w.stored().line()).append('\n');
      }
      if (w.pressure().heldBack()) {
        out.append("      held back    ").append(w.pressure().line()).append('\n');
      }
    }
    SyncStats t = r.totals();
    out.append(
        String.format(
            "  cells read     %,d = %,d written + %,d rejected (%s)%n",
            t.cellsRead(),
            t.cellsWritten(),
            t.cellsRejected(),
            t.addsUp() ? "adds up" : "DOES NOT ADD UP"));
    if (r.rejectsFiles() != null) {
      out.append(
          String.format(
              "  rows rejected  %,d (reasons in %s); every verdict counts those the mapping cannot"
                  + " place, and a repair puts the others where they belong%n",
              t.rowsRejected(), r.rejectsFiles()));
      for (String e : r.rejectExamples()) {
        out.append("      ").append(e.replace('\t', ' ')).append('\n');
      }
    }
    out.append(
        String.format(
            "  watermark      %s (%.1f s behind now); %d window(s) in %.1f s%n",
            Instant.ofEpochMilli(r.watermarkAfter()),
            r.lagMillis() / 1000.0,
            r.windows().size(),
            r.seconds()));
    if (r.finalRun()) {
      out.append(
          String.format(
              "  final check    cells below %s on both sides%n",
              Instant.ofEpochMilli(r.windowTo())));
      out.append(VerifyText.verify(r.verify()));
      if (r.repair() != null) {
        out.append("  ")
            .append(RepairText.repair(r.repair()).replace("\n", "\n  ").stripTrailing());
        out.append('\n');
      }
      if (r.rowsWrittenAfterStop() > 0) {
        out.append(
            String.format(
                "  writers        NOT STOPPED: %,d rows hold cells stamped at or after %s (first:"
                    + " %s)%n",
                r.rowsWrittenAfterStop(),
                Instant.ofEpochMilli(r.windowTo()),
                r.firstWrittenAfterStop()));
      }
      if (r.sourceChanged() != null) {
        out.append("  writers        NOT STOPPED: ").append(r.sourceChanged()).append('\n');
      } else if (r.rowsWrittenAfterStop() == 0) {
        out.append(
            "  writers        stopped: no source region served a write (of any timestamp) or a"
                + " bulk load, moved or split during the final sync\n");
      }
      // The one place the verdict is printed: only from a comparison that matched, with no write
      // after the stop.
      if (r.switchSafe()) {
        out.append(
            String.format(
                "  %s holds what %s held below %s: readers and writers can be switched to %s%n",
                r.target(), r.source(), Instant.ofEpochMilli(r.windowTo()), r.target()));
      }
    }
    for (String w : r.warnings()) {
      out.append("  warning        ").append(w).append('\n');
    }
    return out.toString();
  }
}
