package io.rekey.options;

/**
 * An option or configuration value that cannot be used. The message is meant for the person who
 * typed it: it names the option, the value and what to do instead.
 */
public final class InvalidOptionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidOptionException(String message) {
    super(message);
  }

  /** {@code --salt-buckets is 0 but must be between 1 and 256}. */
  public static InvalidOptionException of(String option, String value, String mustBe) {
    return new InvalidOptionException("--" + option + " is '" + value + "' but " + mustBe);
  }
}
