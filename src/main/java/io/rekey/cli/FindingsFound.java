package io.rekey.cli;

import io.rekey.common.RekeyException;

/**
 * A command that finished and found what its user must act on (tables that differ, writers that did
 * not stop): printed as one line like any {@link RekeyException}, it ends the command with {@link
 * ExitCode#FINDINGS} rather than {@link ExitCode#FAILED}, so a scheduler tells a finding from a
 * crash.
 */
final class FindingsFound extends RekeyException {
  private static final long serialVersionUID = 1L;

  FindingsFound(String message) {
    super(message);
  }
}
