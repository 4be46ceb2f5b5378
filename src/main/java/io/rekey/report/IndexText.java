package io.rekey.report;

import io.rekey.common.Sizes;
import io.rekey.index.IndexLookup;
import io.rekey.index.IndexRunResult;
import io.rekey.index.IndexScrutinyResult;
import io.rekey.index.IndexStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The human-readable forms of index results. */
public final class IndexText {
  private IndexText() {}

  public static String run(IndexRunResult r) {
    StringBuilder out = new StringBuilder();
    out.append("index ")
        .append(r.kind())
        .append(": ")
        .append(r.source())
        .append(" -> ")
        .append(r.index())
        .append(r.indexCreated() ? " (created)" : "")
        .append('\n');
    out.append("  entries     ").append(r.definition()).append('\n');
    if (r.indexRegions() != null) {
      out.append("  regions     ").append(r.indexRegions()).append('\n');
    }
    out.append("  read        ").append(r.read());
    if (r.windowFrom() != null) {
      out.append(", cells in [")
          .append(time(r.windowFrom()))
          .append(", ")
          .append(time(r.windowTo()))
          .append(')');
    }
    out.append('\n');
    if (r.nothingToDo()) {
      out.append("  nothing to do: the watermark ")
          .append(time(r.watermarkAfter()))
          .append(" is already at the end of the window\n");
      return out.toString();
    }
    IndexStats c = r.counts();
    out.append(
        String.format(
            "  rows        %,d read = %,d indexed + %,d without %s + %,d rejected%n",
            c.rowsRead(),
            c.rowsIndexed(),
            c.rowsWithoutValue(),
            r.windowFrom() == null ? "the value" : "the value now (deleted, or it was removed)",
            c.rowsRejected()));
    out.append(
        String.format(
            "  written     %,d entries%s, %,d cells, %s%n",
            c.entries(),
            r.windowFrom() == null
                ? ""
                : String.format(
                    " (%,d retired: their row changed its value, key or was deleted)",
                    c.entriesRetired()),
            r.cellsWritten(),
            r.write().equals("puts")
                ? "as Puts"
                : Sizes.human(r.bytesWritten()) + " in " + r.files() + " HFile(s), bulk-loaded"));
    if (r.stored() != null) {
      out.append("  in the store ").append(r.stored().line()).append('\n');
    }
    if (r.pressure().heldBack()) {
      out.append("  held back    ").append(r.pressure().line()).append('\n');
    }
    if (r.rejectsGlob() != null) {
      out.append("  rejects     ").append(r.rejectsGlob()).append('\n');
      for (String e : r.rejectExamples()) {
        out.append("              ").append(e.replace('\t', ' ')).append('\n');
      }
    }
    for (String w : r.warnings()) {
      out.append("  warning     ").append(w).append('\n');
    }
    out.append("  watermark   ")
        .append(r.watermarkBefore() == null ? "none" : time(r.watermarkBefore()))
        .append(" -> ")
        .append(time(r.watermarkAfter()))
        .append('\n');
    out.append("  time        ").append(stages(r.stageSeconds(), r.seconds())).append('\n');
    return out.toString();
  }

  public static String scrutiny(IndexScrutinyResult r) {
    StringBuilder out = new StringBuilder();
    out.append("index scrutiny: ")
        .append(r.source())
        .append(" <-> ")
        .append(r.index())
        .append('\n');
    out.append(
        String.format(
            "  source rows %,d; index entries %,d; watermark %s%n",
            r.sourceRows(),
            r.indexEntries(),
            r.watermark() == null ? "none" : time(r.watermark())));
    out.append(String.format("  valid       %,d%n", r.valid()));
    out.append(
        String.format(
            "  stale       %,d  (entries whose covered values differ from the source)%n",
            r.stale()));
    out.append(
        String.format("  missing     %,d  (source rows without their entry)%n", r.missing()));
    out.append(
        String.format(
            "  invalid     %,d  (entries whose source row now gives another entry)%n",
            r.invalid()));
    out.append(
        String.format("  orphan      %,d  (entries whose source row is gone)%n", r.orphan()));
    out.append(
        String.format(
            "  untracked   %,d  (source rows whose row record does not list exactly their"
                + " entries: updates would leave entries behind)%n",
            r.untracked()));
    if (r.foreign() > 0) {
      out.append(
          String.format(
              "  foreign     %,d  (rows of the index table that are no entries of this index:"
                  + " left alone)%n",
              r.foreign()));
    }
    if (r.pending() > 0) {
      out.append(
          String.format(
              "  pending     %,d  (the source row changed after the watermark: the next update"
                  + " writes or retires them)%n",
              r.pending()));
    }
    for (Map.Entry<String, List<String>> e : r.samples().entrySet()) {
      out.append("  ").append(e.getKey()).append(", e.g.:\n");
      for (String s : e.getValue()) {
        out.append("    ").append(s).append('\n');
      }
    }
    if (r.repaired()) {
      out.append(
          String.format(
              "  repaired    %,d entries written, %,d deleted, %,d row records written%n",
              r.written(), r.deleted(), r.untracked()));
    }
    out.append("  verdict     ")
        .append(
            r.clean()
                ? "the index matches the source"
                : r.repaired()
                    ? "repaired; run scrutiny again to confirm"
                    : "the index differs from the source: run with --repair to fix it")
        .append('\n');
    out.append(String.format("  time        %.2f s%n", r.seconds()));
    return out.toString();
  }

  public static String lookup(IndexLookup.Result r) {
    StringBuilder out = new StringBuilder();
    out.append("index lookup: ")
        .append(r.index())
        .append(" value '")
        .append(r.value())
        .append('\'');
    if (r.from() != null || r.to() != null) {
      out.append(" from ")
          .append(r.from() == null ? "the start" : time(r.from()))
          .append(" to ")
          .append(r.to() == null ? "now" : time(r.to()));
    }
    out.append('\n');
    out.append(
        String.format(
            "  %,d entries in %d key range(s); the newest %d:%n",
            r.entries(), r.ranges(), r.newest().size()));
    for (IndexLookup.Hit h : r.newest()) {
      out.append("  ").append(h.time()).append("  ").append(h.sourceKey()).append('\n');
      for (Map.Entry<String, String> c : h.columns().entrySet()) {
        out.append("      ").append(c.getKey()).append(" = ").append(c.getValue()).append('\n');
      }
      if (h.note() != null) {
        out.append("      ! ").append(h.note()).append('\n');
      }
    }
    if (r.sourceRows() != null) {
      out.append(
          String.format(
              "  source rows with this value (filter scan): %,d -> %s%n",
              r.sourceRows(),
              r.sourceRows() == r.entries()
                  ? "matches the index"
                  : "DIFFERS from the index's " + r.entries() + " (run index scrutiny)"));
    }
    out.append(String.format("  time        %.2f s%n", r.seconds()));
    return out.toString();
  }

  private static String time(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }

  private static String stages(Map<String, Double> stages, double total) {
    StringBuilder s = new StringBuilder(String.format("%.2f s", total));
    if (!stages.isEmpty()) {
      s.append(" (");
      boolean first = true;
      for (Map.Entry<String, Double> e : stages.entrySet()) {
        s.append(first ? "" : ", ")
            .append(e.getKey())
            .append(' ')
            .append(e.getValue())
            .append(" s");
        first = false;
      }
      s.append(')');
    }
    return s.toString();
  }
}
