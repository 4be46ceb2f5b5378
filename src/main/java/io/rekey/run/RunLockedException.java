package io.rekey.run;

import io.rekey.common.RekeyException;

/**
 * Another run holds the lock of the table this run would write, so this one did nothing. A
 * scheduler can retry later (the CLI exits 3).
 */
public final class RunLockedException extends RekeyException {
  private static final long serialVersionUID = 1L;

  public RunLockedException(String message) {
    super(message);
  }
}
