package io.rekey.index;

import io.rekey.RekeyException;

/**
 * Another run of the same index holds its lock, so this one did nothing. A scheduler can retry
 * later (the CLI exits 3).
 */
public final class IndexBusyException extends RekeyException {
  private static final long serialVersionUID = 1L;

  public IndexBusyException(String message) {
    super(message);
  }
}
