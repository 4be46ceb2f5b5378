package io.rekey.common;

/**
 * A command that finished and found what its user must act on (tables that differ, writers that did
 * not stop): printed as one line like any {@link RekeyException}, it ends the command with exit
 * code 4 (findings) rather than 1 (failed), so a scheduler tells a finding from a crash. A job
 * throws it where it stops on a finding before its result exists (writers still writing at a final
 * sync's start).
 */
public final class FindingsFound extends RekeyException {
  private static final long serialVersionUID = 1L;

  public FindingsFound(String message) {
    super(message);
  }
}
