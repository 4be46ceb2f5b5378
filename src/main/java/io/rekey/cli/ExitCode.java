package io.rekey.cli;

import java.util.Set;

/**
 * The exit codes a scheduler can act on, the same for every command: a retry may help after 1 and
 * 3, never after 2, and 4 is a result (the tables differ, the index has invalid entries), not a
 * failure of the run.
 */
public enum ExitCode {
  /** The job did what was asked. */
  OK(0, "done (also: nothing new to do)", "go on"),
  /** The job failed: HBase, HDFS or Spark refused or stopped it; it may be run again. */
  FAILED(
      1,
      "the job failed; one line says what and what to do, and ends with the log file's path",
      "retry: the tool's reruns are safe"),
  /** The command line or a configuration file is wrong; nothing was done. */
  USAGE(
      2,
      "the command line, a job file or a permission is wrong; nothing was done",
      "stop: fix the input"),
  /** Another run holds the target's or the index's lock; nothing was done, try again later. */
  BUSY(
      3, "another run of the same target or index holds its lock; nothing was done", "retry later"),
  /**
   * The job finished and found differences or findings: verify or a final sync saw the tables
   * differ, scrutiny or a checked lookup found invalid entries, audit found what {@code --fail-on}
   * names. The result says what.
   */
  FINDINGS(
      4,
      "the job finished and found differences or findings: verify, a repair or a final sync saw"
          + " the tables differ, source rows the mapping cannot place that --accept-unmapped did"
          + " not acknowledge, or writers that had not stopped; scrutiny or lookup --check-source"
          + " found invalid entries; audit's --fail-on fired",
      "alert: a result to act on, not a failure to retry");

  private final int code;
  private final String meaning;
  private final String action;

  ExitCode(int code, String meaning, String action) {
    this.code = code;
    this.meaning = meaning;
    this.action = action;
  }

  /** What the code means, for the commands' help and README's table. */
  public String meaning() {
    return meaning;
  }

  /** What a scheduler should do on it. */
  public String action() {
    return action;
  }

  /** The help's lines for {@code codes}: {@code " 0 done (…); go on"}, one per code. */
  static String help(Set<ExitCode> codes) {
    StringBuilder lines = new StringBuilder("Exit codes:\n");
    for (ExitCode c : codes) {
      lines
          .append("  ")
          .append(c.code)
          .append("  ")
          .append(c.meaning)
          .append(" (")
          .append(c.action)
          .append(")\n");
    }
    return lines.toString();
  }

  public int code() {
    return code;
  }
}
