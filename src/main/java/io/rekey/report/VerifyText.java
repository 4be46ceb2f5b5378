package io.rekey.report;

import io.rekey.verify.RegionDiff;
import io.rekey.verify.UnmappedRows;
import io.rekey.verify.VerifyResult;
import java.util.List;

/** The human-readable form of a verify's result, as every job that verifies prints it. */
public final class VerifyText {
  private VerifyText() {}

  /** A verify's verdict, with the rows it could not compare or place. */
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
