package io.rekey.keys;

/**
 * A key that cannot be mapped, with the reason and a detail for the rejects file. Thrown on the hot
 * path for a bad row, so it carries no stack trace.
 */
public final class KeyReject extends Exception {
  private static final long serialVersionUID = 1L;

  private final RejectReason reason;

  public KeyReject(RejectReason reason, String detail) {
    super(detail, null, false, false);
    this.reason = reason;
  }

  public RejectReason reason() {
    return reason;
  }

  /** The detail without the reason, e.g. {@code field ts is 'abc', not a number}. */
  public String detail() {
    return getMessage();
  }

  @Override
  public String toString() {
    return reason + ": " + getMessage();
  }
}
