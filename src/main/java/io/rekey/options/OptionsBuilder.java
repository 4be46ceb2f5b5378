package io.rekey.options;

import java.util.List;
import java.util.function.Function;

/**
 * Typed options for code that runs a job without a command line (tests, benchmarks, an embedding
 * application): each value is set through the option's own {@link OptionDef}, so a name cannot be
 * misspelt nor a value be of the wrong type, and {@link #build} validates and reads them exactly as
 * the command line's would be, refusals included.
 *
 * @param <O> the command's typed options
 */
public final class OptionsBuilder<O> {
  private final List<OptionDef<?>> declared;
  private final Function<OptionValues, O> from;
  private OptionValues values = OptionValues.empty();

  /**
   * @param declared the command's options
   * @param from how validated values become {@code O} (the options record's {@code from})
   */
  public OptionsBuilder(List<OptionDef<?>> declared, Function<OptionValues, O> from) {
    this.declared = List.copyOf(declared);
    this.from = from;
  }

  /** Sets {@code option} (adds a value, for a repeatable one). */
  public <T> OptionsBuilder<O> set(OptionDef<T> option, T value) {
    values = values.with(option.name(), text(value));
    return this;
  }

  /** Turns a flag on. */
  public OptionsBuilder<O> set(OptionDef<Boolean> flag) {
    return set(flag, Boolean.TRUE);
  }

  /** The options, validated as a command line's. */
  public O build() {
    return from.apply(values.validate(declared));
  }

  /** A value as the command line spells it. */
  static String text(Object value) {
    return value instanceof Enum<?> e ? OptionDef.cliName(e) : String.valueOf(value);
  }
}
