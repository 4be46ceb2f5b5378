package io.rekey.cli;

import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.security.Grant;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One subcommand: its options, how to turn them into its typed options record, and how to run it.
 *
 * @param <O> the command's typed options
 */
interface Command<O> {
  /** Its name, summary, result type, exit codes, throttle and job files. */
  About about();

  /**
   * The permissions the command needs on a secure cluster, with these options: {@link Main} checks
   * them before {@link #run} and refuses in one line when one is missing (exit 2).
   * deploy/README.md's permissions table lists the same.
   */
  default List<Grant> grants(O options) {
    return List.of();
  }

  /**
   * The command's own options (the common ones are added by {@link Main}) and how their validated
   * values become its typed options, checking what single values cannot show (throwing {@link
   * io.rekey.options.InvalidOptionException} naming the option, the value and the fix).
   */
  record Parsing<O>(
      List<OptionDef<?>> declared,
      UnaryOperator<OptionValues> expand,
      Function<OptionValues, O> from) {
    /** Options whose values name no files to read. */
    Parsing(List<OptionDef<?>> declared, Function<OptionValues, O> from) {
      this(declared, UnaryOperator.identity(), from);
    }
  }

  /** How the command's options are declared and read. */
  Parsing<O> parsing();

  /** The command's own options. */
  default List<OptionDef<?>> options() {
    return parsing().declared();
  }

  /**
   * The given values with what files they name filled in (an index's {@code --def}); the command
   * line's own values win.
   */
  default OptionValues expand(OptionValues given) {
    return parsing().expand().apply(given);
  }

  /** The typed options of validated values ({@link #parsing}). */
  default O typed(OptionValues values) {
    return parsing().from().apply(values);
  }

  /**
   * Runs the command. Throws {@link io.rekey.common.RekeyException} for failures the user can act
   * on and {@link io.rekey.options.InvalidOptionException} for option values that cannot be used.
   */
  ExitCode run(O options, CommandContext context) throws Exception;
}
