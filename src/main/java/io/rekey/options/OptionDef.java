package io.rekey.options;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One option of a command, declared once: its name, value type, default and one-line doc. The same
 * declaration serves the command line (through {@code ScoptParser}), configuration files in {@code
 * conf/} and the usage text, so a key cannot be spelt or defaulted two ways.
 *
 * @param <T> the value's type
 */
public final class OptionDef<T> {
  private final String name;
  private final String valueName;
  private final String doc;
  private final T defaultValue;
  private final boolean required;
  private final boolean repeatable;
  private final boolean flag;
  private final ValueParser<T> parser;

  private OptionDef(
      String name,
      String valueName,
      String doc,
      T defaultValue,
      boolean required,
      boolean repeatable,
      boolean flag,
      ValueParser<T> parser) {
    this.name = Objects.requireNonNull(name);
    this.valueName = valueName;
    this.doc = Objects.requireNonNull(doc);
    this.defaultValue = defaultValue;
    this.required = required;
    this.repeatable = repeatable;
    this.flag = flag;
    this.parser = Objects.requireNonNull(parser);
  }

  /** A text option. */
  public static OptionDef<String> text(String name, String valueName, String doc) {
    return valued(name, valueName, doc, (o, raw) -> raw);
  }

  /** An option with a value, no default, optional, given once: what every factory starts from. */
  private static <T> OptionDef<T> valued(
      String name, String valueName, String doc, ValueParser<T> parser) {
    return new OptionDef<>(name, valueName, doc, null, false, false, false, parser);
  }

  /** A whole number between {@code min} and {@code max}, both included. */
  public static OptionDef<Long> number(
      String name, String valueName, String doc, long min, long max) {
    return valued(
        name,
        valueName,
        doc,
        (o, raw) -> {
          long value;
          try {
            value = Long.parseLong(raw.trim().replace("_", ""));
          } catch (NumberFormatException e) {
            throw InvalidOptionException.of(o, raw, "must be a whole number");
          }
          if (value < min || value > max) {
            throw InvalidOptionException.of(
                o, raw, "must be between " + min + " and " + max + " (both included)");
          }
          return value;
        });
  }

  /** A decimal number above {@code minExclusive} and at most {@code max}. */
  public static OptionDef<Double> decimal(
      String name, String valueName, String doc, double minExclusive, double max) {
    return valued(
        name,
        valueName,
        doc,
        (o, raw) -> {
          double value;
          try {
            value = Double.parseDouble(raw.trim());
          } catch (NumberFormatException e) {
            throw InvalidOptionException.of(o, raw, "must be a number such as 0.1");
          }
          if (!(value > minExclusive && value <= max)) {
            throw InvalidOptionException.of(
                o, raw, "must be above " + minExclusive + " and at most " + max);
          }
          return value;
        });
  }

  /** A switch: present means true. In a configuration file it is written {@code name = true}. */
  public static OptionDef<Boolean> flag(String name, String doc) {
    return new OptionDef<>(
        name,
        null,
        doc,
        Boolean.FALSE,
        false,
        false,
        true,
        (o, raw) -> {
          String v = raw.trim().toLowerCase(Locale.ROOT);
          if (v.equals("true") || v.equals("yes") || v.isEmpty()) {
            return Boolean.TRUE;
          }
          if (v.equals("false") || v.equals("no")) {
            return Boolean.FALSE;
          }
          throw InvalidOptionException.of(o, raw, "must be true or false");
        });
  }

  /** A file or directory path. */
  public static OptionDef<Path> path(String name, String valueName, String doc) {
    return valued(
        name,
        valueName,
        doc,
        (o, raw) -> {
          if (raw.isBlank()) {
            throw InvalidOptionException.of(o, raw, "must be a file or directory path");
          }
          return Path.of(raw.trim());
        });
  }

  /** A file or directory, local or a Hadoop filesystem URI ({@link Location}). */
  public static OptionDef<Location> location(String name, String valueName, String doc) {
    return valued(
        name,
        valueName,
        doc,
        (o, raw) -> {
          if (raw.isBlank()) {
            throw InvalidOptionException.of(
                o, raw, "must be a path, or a URI such as hdfs://namenode:8020/dir/file");
          }
          return new Location(raw);
        });
  }

  /** One of the constants of an enum, named in lower case with dashes. */
  public static <E extends Enum<E>> OptionDef<E> choice(
      String name, String doc, Class<E> type, E defaultValue) {
    String choices =
        Arrays.stream(type.getEnumConstants())
            .map(OptionDef::cliName)
            .collect(Collectors.joining("|"));
    return new OptionDef<E>(
        name,
        choices,
        doc,
        defaultValue,
        false,
        false,
        false,
        (o, raw) -> {
          for (E e : type.getEnumConstants()) {
            if (cliName(e).equals(raw.trim().toLowerCase(Locale.ROOT))) {
              return e;
            }
          }
          throw InvalidOptionException.of(o, raw, "must be one of " + choices);
        });
  }

  /** How an enum constant is spelt on the command line: {@code FAIL_ON} is {@code fail-on}. */
  public static String cliName(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The same option with a default used when neither the command line nor a file sets it. */
  public OptionDef<T> withDefault(T value) {
    return new OptionDef<>(name, valueName, doc, value, required, repeatable, flag, parser);
  }

  /** The same option, which must then be given (on the command line or in a file). */
  public OptionDef<T> required() {
    return new OptionDef<>(name, valueName, doc, defaultValue, true, repeatable, flag, parser);
  }

  /** The same option, which may be given more than once. */
  public OptionDef<T> repeatable() {
    return new OptionDef<>(name, valueName, doc, defaultValue, required, true, flag, parser);
  }

  /** The same option with an extra check on the parsed value. */
  public OptionDef<T> validatedBy(ValueCheck<T> check) {
    ValueParser<T> first = parser;
    return new OptionDef<>(
        name,
        valueName,
        doc,
        defaultValue,
        required,
        repeatable,
        flag,
        (o, raw) -> {
          T value = first.parse(o, raw);
          check.check(o, raw, value);
          return value;
        });
  }

  /**
   * A check on a parsed value.
   *
   * @param <T> the value's type
   */
  @FunctionalInterface
  public interface ValueCheck<T> {
    /**
     * @throws InvalidOptionException when the value is not acceptable
     */
    void check(String option, String raw, T value);
  }

  public String name() {
    return name;
  }

  /** What the value looks like in usage text, e.g. {@code NS:TABLE}; null for a flag. */
  public String valueName() {
    return valueName;
  }

  public String doc() {
    return doc;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public boolean isRequired() {
    return required;
  }

  public boolean isRepeatable() {
    return repeatable;
  }

  public boolean isFlag() {
    return flag;
  }

  /** Parses one raw value. */
  public T parse(String raw) {
    return parser.parse(name, raw);
  }

  /** The doc with the default appended, as shown by {@code --help}. */
  public String helpText() {
    StringBuilder text = new StringBuilder(doc);
    if (required) {
      text.append(" (required)");
    } else if (defaultValue != null && !flag) {
      Object shown = defaultValue instanceof Enum<?> e ? cliName(e) : defaultValue;
      text.append(" (default: ").append(shown).append(')');
    }
    return text.toString();
  }

  @Override
  public String toString() {
    return "--" + name;
  }
}
