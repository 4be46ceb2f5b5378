package io.rekey.security;

/**
 * A permission a command needs is missing, found before any work: the message is the one line that
 * says who lacks what, where, and the grant (or other way) that fixes it.
 */
public final class MissingGrantException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MissingGrantException(String line) {
    super(line);
  }
}
