package io.rekey.cli;

import java.util.Set;

/**
 * The exit codes a scheduler can act on, the same for every command: a retry may help after 1 and
 * 3, never after 2, and 4 is a result (the tables differ, the index has invalid entries), not a
 * failure of the run.
 */
public enum ExitCode {
  /** The job did what was asked. */
  OK(0, "done"),
  /** The job failed: HBase, HDFS or Spark refused or stopped it; it may be run again. */
  FAILED(1, "the job failed; the error line says what and what to do (a rerun may help)"),
  /** The command line or a configuration file is wrong; nothing was done. */
  USAGE(2, "the command line, a job file or a permission is wrong; nothing was done"),
  /** Another run holds the target's or the index's lock; nothing was done, try again later. */
  BUSY(3, "another run holds the table's lock; nothing was done (retry later)"),
  /**
   * The job finished and found differences or findings: verify or a final sync saw the tables
   * differ, scrutiny or a checked lookup found invalid entries, audit found what {@code --fail-on}
   * names. The result says what.
   */
  FINDINGS(4, "the job finished and found differences or findings (see its result)");

  private final int code;
  private final String meaning;

  ExitCode(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /** What the code means, for the commands' help. */
  public String meaning() {
    return meaning;
  }

  /** The help's lines for {@code codes}: {@code " 0 done"}, one per code. */
  static String help(Set<ExitCode> codes) {
    StringBuilder lines = new StringBuilder("Exit codes:\n");
    for (ExitCode c : codes) {
      lines.append("  ").append(c.code).append("  ").append(c.meaning).append('\n');
    }
    return lines.toString();
  }

  public int code() {
    return code;
  }
}
