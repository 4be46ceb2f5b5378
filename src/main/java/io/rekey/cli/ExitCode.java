package io.rekey.cli;

/** The exit codes a scheduler can act on. */
public enum ExitCode {
  /** The job did what was asked. */
  OK(0),
  /** The job ran and failed, or found what {@code --fail-on} asks to fail on. */
  FAILED(1),
  /** The command line or a configuration file is wrong; nothing was done. */
  USAGE(2),
  /** Another run of the same index holds its lock; nothing was done, try again later. */
  BUSY(3);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
