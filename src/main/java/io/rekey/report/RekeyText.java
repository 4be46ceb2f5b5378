package io.rekey.report;

import io.rekey.common.Sizes;
import io.rekey.hbase.FamilySettings;
import io.rekey.keys.KeyText;
import io.rekey.rekey.RekeyPlan;
import io.rekey.rekey.RekeyResult;
import java.time.Instant;

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
    out.append(VerifyText.verify(r.verify()));
    return out.toString();
  }
}
