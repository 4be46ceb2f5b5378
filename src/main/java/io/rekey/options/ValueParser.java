package io.rekey.options;

/**
 * Turns the text of an option value into a typed value, or explains why it cannot.
 *
 * @param <T> the option's type
 */
@FunctionalInterface
public interface ValueParser<T> {
  /**
   * @param option the option's long name, for the message
   * @param raw the text as given on the command line or in a configuration file
   * @throws InvalidOptionException naming the option, the value and the fix
   */
  T parse(String option, String raw);
}
