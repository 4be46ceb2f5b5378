package io.rekey.report;

import io.rekey.common.Sizes;
import io.rekey.hbase.FamilySettings;
import io.rekey.keys.KeyText;
import io.rekey.rekey.RekeyPlan;
import io.rekey.rekey.RekeyResult;
import io.rekey.rekey.RepairResult;
import io.rekey.rekey.SyncResult;
import io.rekey.rekey.SyncStats;
import io.rekey.verify.RegionDiff;
import io.rekey.verify.UnmappedRows;
import io.rekey.verify.VerifyResult;
import java.time.Instant;
import java.util.List;

/** The human-readable forms of a rekey plan and result. */
public final class RekeyText {
  private RekeyText() {}

  public static String plan(RekeyPlan p) {
    StringBuilder out = new StringBuilder();
    out.append("Plan: rekey ").append(p.source()).append(" -> ").append(p.target()).append('\n');
    out.append("  source key  ").append(p.sourceKey()).append('\n');
    out.append("  target key  ").append(p.targetKey()).append('\n');
    out.append("  injective   ").append(p.injectivity().explanation()).append('\n');
    if (p.collisionCheck()) {
      out.append(
          "              new keys from two old rows stop the job before loading (--allow-merge to merge)\n");
    }
    out.append("  read        ")
        .append(p.read())
        .append(p.snapshot() == null ? "" : " (snapshot " + p.snapshot() + ")")
        .append(", ")
        .append(p.sourceRegions())
        .append(" source region(s)\n");
    out.append("  target      ")
        .append(p.createTarget() ? "will be created with " : "exists, ")
        .append(p.targetRegions())
        .append(" region(s), ")
        .append(p.tasksPerRegion())
        .append(" writer task(s) per region\n");
    for (FamilySettings f : p.families()) {
      out.append(
          String.format(
              "  family %s: COMPRESSION=%s BLOOMFILTER=%s BLOCKSIZE=%d DATA_BLOCK_ENCODING=%s%n",
              f.name(), f.compression(), f.bloomType(), f.blockSize(), f.dataBlockEncoding()));
    }
    out.append("  run files   ").append(p.runDir()).append('\n');
    out.append("  max rejects ").append(p.maxRejects()).append('\n');
    if (!p.splitPoints().isEmpty()) {
      out.append("  split points: ");
      int shown = 0;
      for (KeyText k : p.splitPoints()) {
        if (shown++ == 8) {
          out.append(" ... (").append(p.splitPoints().size()).append(" in all)");
          break;
        }
        out.append(shown == 1 ? "" : ", ").append('\'').append(k.printable()).append('\'');
      }
      out.append('\n');
    }
    if (!p.sampleKeys().isEmpty()) {
      out.append("  sample keys (the source's first rows):\n");
      for (RekeyPlan.SampleKey s : p.sampleKeys()) {
        out.append("    '")
            .append(s.oldKey().printable())
            .append("' -> ")
            .append(
                s.newKey() == null ? "REJECTED " + s.reject() : "'" + s.newKey().printable() + "'")
            .append('\n');
      }
    }
    return out.toString();
  }

  public static String result(RekeyResult r) {
    StringBuilder out = new StringBuilder(plan(r.plan()));
    if (r.dryRun()) {
      out.append("\nDry run: nothing was created, read in bulk, written or loaded.\n");
      return out.toString();
    }
    out.append('\n');
    if (r.resumed()) {
      out.append("Resumed the earlier run in ").append(r.plan().runDir()).append('\n');
    }
    out.append(
        String.format(
            "rekey: %s -> %s %s%n",
            r.plan().source(),
            r.plan().target(),
            r.state().equals("LOADED") ? "loaded" : r.state()));
    out.append(String.format("  rows read      %,d%n", r.rowsRead()));
    out.append(
        String.format(
            "  cells read     %,d = %,d written + %,d rejected + %,d skipped (%s)%n",
            r.cellsRead(),
            r.cellsWritten(),
            r.cellsRejected(),
            r.cellsSkipped(),
            r.countsAddUp() ? "adds up" : "DOES NOT ADD UP"));
    out.append(
        String.format(
            "  rows rejected  %,d%s%n",
            r.rowsRejected(),
            r.rejectsFiles() == null ? "" : " (reasons in " + r.rejectsFiles() + ")"));
    for (String e : r.rejectExamples()) {
      out.append("      ").append(e.replace('\t', ' ')).append('\n');
    }
    out.append(
        String.format(
            "  written        %s in %d HFile(s) for %d region(s)%n",
            Sizes.human(r.bytesWritten()), r.files(), r.plan().targetRegions()));
    if (r.stored() != null) {
      out.append("  in the store   ").append(r.stored().line()).append('\n');
    }
    if (r.pressure().heldBack()) {
      out.append("  held back      ").append(r.pressure().line()).append('\n');
    }
    out.append(
        String.format(
            "  sync from      %s ('rekey sync' copies what is written from then on)%n",
            Instant.ofEpochMilli(r.syncWatermark())));
    for (String w : r.syncWarnings()) {
      out.append("  warning        ").append(w).append('\n');
    }
    out.append("  time          ");
    r.stageSeconds().forEach((stage, s) -> out.append(String.format(" %s %.1f s;", stage, s)));
    out.append(String.format(" total %.1f s%n", r.totalSeconds()));
    out.append(verify(r.verify()));
    return out.toString();
  }

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
      out.append(verify(r.verify()));
      if (r.repair() != null) {
        out.append("  ").append(repair(r.repair()).replace("\n", "\n  ").stripTrailing());
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
      out.append(verify(r.verify()));
    }
    out.append(String.format("  took           %.1f s%n", r.seconds()));
    return out.toString();
  }

  public static String verify(VerifyResult v) {
    if (v == null) {
      return "  verify         skipped (--no-verify)\n";
    }
    StringBuilder out = new StringBuilder();
    if (v.matches()) {
      out.append(
          String.format(
              "  verify         MATCH: %,d cells in %d regions, same count and digest on both sides (%.1f s)%n",
              v.targetCells(), v.regions(), v.seconds()));
      return out.append(unmapped(v.unmapped())).append(changed(v)).append(merged(v)).toString();
    }
    out.append(
        String.format(
            "  verify         DIFFERENT in %d of %d regions: source maps %,d cells, target holds %,d%n",
            v.differingRegions(), v.regions(), v.sourceCells(), v.targetCells()));
    for (RegionDiff d : v.differences()) {
      out.append(
          String.format(
              "      region %d ['%s', '%s'): source %,d cells, target %,d%n",
              d.region(),
              d.start().printable(),
              d.end().printable(),
              d.sourceCells(),
              d.targetCells()));
    }
    return out.append(unmapped(v.unmapped())).append(changed(v)).append(merged(v)).toString();
  }

  /** With a layout that is not injective: the target keys two source rows merged under. */
  static String merged(VerifyResult v) {
    return countLine(
        "merged",
        v.mergedKeys(),
        "target keys hold the cells of two or more source rows",
        v.mergedExamples(),
        "the layout is not injective");
  }

  /** With a time: the rows left out because they changed at or after it, or nothing. */
  static String changed(VerifyResult v) {
    return countLine(
        "not compared",
        v.rowsChangedSince(),
        "target rows changed at or after the time on either side",
        v.changedExamples(),
        "compare again once they stop changing");
  }

  /** {@code " LABEL N WHAT (first: …): ADVICE"}, or nothing when there are none. */
  private static String countLine(
      String label, long count, String what, List<String> examples, String advice) {
    if (count == 0) {
      return "";
    }
    return String.format(
        "  %-14s %,d %s (first: %s): %s%n",
        label, count, what, String.join(", ", examples), advice);
  }

  /**
   * The line that stands beside every verdict: the source rows no region holds, because the mapping
   * cannot place them, with the first few.
   */
  static String unmapped(UnmappedRows u) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "  unmapped       %s%s%n",
            u.line(),
            u.rows() == 0
                ? ""
                : ": they are in neither side's count. Give them values the layout accepts and"
                    + " sync, or acknowledge them with --accept-unmapped "
                    + u.rows()));
    for (String e : u.examples()) {
      out.append("      ").append(e.replace('\t', ' ')).append('\n');
    }
    return out.toString();
  }
}
