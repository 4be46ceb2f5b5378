package io.rekey.cli;

import io.rekey.common.JsonResult;
import io.rekey.hbase.Grant;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One subcommand: its options, how to turn them into its typed options record, and how to run it.
 *
 * @param <O> the command's typed options
 */
interface Command<O> {
  String name();

  /** One line for the root usage. */
  String summary();

  /**
   * The type of the result {@code --json} writes: a {@link JsonResult} whose shape the JSON Schema
   * {@code /io/rekey/schema/NAME.schema.json} documents (NAME is the command, words joined by
   * {@code -}).
   */
  Class<? extends JsonResult> result();

  /**
   * The {@code command} a job file given with {@code --job-file} must name: the command's own name,
   * unless it shares another command's files ({@code rekey sync} takes the {@code rekey} job's).
   */
  default String jobFileCommand() {
    return name();
  }

  /** The exit codes the command can end with, which its help lists. */
  default Set<ExitCode> exitCodes() {
    return EnumSet.of(ExitCode.OK, ExitCode.FAILED, ExitCode.USAGE);
  }

  /**
   * Whether the command writes or scans through region servers, and so takes the throttle options
   * ({@link io.rekey.hbase.Throttle}), which {@link Main} adds and hands on in the HBase settings.
   */
  default boolean throttled() {
    return false;
  }

  /**
   * The permissions the command needs on a secure cluster, with these options: {@link Main} checks
   * them before {@link #run} and refuses in one line when one is missing (exit 2).
   * deploy/README.md's permissions table lists the same.
   */
  default List<Grant> grants(O options) {
    return List.of();
  }

  /** The command's own options (the common ones are added by {@link Main}). */
  List<OptionDef<?>> options();

  /**
   * The given values with what files they name filled in (an index's {@code --def}); the command
   * line's own values win.
   */
  default OptionValues expand(OptionValues given) {
    return given;
  }

  /**
   * Builds the typed options from validated values, checking what single values cannot show.
   *
   * @throws io.rekey.options.InvalidOptionException naming the option, the value and the fix
   */
  O typed(OptionValues values);

  /**
   * Runs the command. Throws {@link io.rekey.common.RekeyException} for failures the user can act
   * on and {@link io.rekey.options.InvalidOptionException} for option values that cannot be used.
   */
  ExitCode run(O options, CommandContext context) throws Exception;
}
