package io.rekey.common;

/**
 * A failure the user can act on: the message names what failed, on which table or file, and what to
 * do. The CLI prints it as one line and exits 1; anything else is a bug and is printed with its
 * cause.
 */
public class RekeyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RekeyException(String message) {
    super(message);
  }

  public RekeyException(String message, Throwable cause) {
    super(message, cause);
  }
}
