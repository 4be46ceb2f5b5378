package io.rekey.cli;

import io.rekey.common.JsonResult;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What the command line knows of a command before it runs it: its name and one-line summary for the
 * usage, the result {@code --json} writes, the exit codes its help lists, whether it takes the
 * throttle options, and which command's job files it reads.
 *
 * @param result the type of the result {@code --json} writes: a {@link JsonResult} whose shape the
 *     JSON Schema {@code /io/rekey/schema/NAME.schema.json} documents (NAME is the command, words
 *     joined by {@code -})
 * @param exitCodes the exit codes the command can end with, which its help lists
 * @param throttled whether the command writes or scans through region servers, and so takes the
 *     throttle options ({@link io.rekey.pacing.Throttle}), which {@link Main} adds and hands on in
 *     the HBase settings
 * @param jobFileCommand the {@code command} a job file given with {@code --job-file} must name: the
 *     command's own name, unless it shares another command's files ({@code rekey sync} takes the
 *     {@code rekey} job's)
 */
record About(
    String name,
    String summary,
    Class<? extends JsonResult> result,
    Set<ExitCode> exitCodes,
    boolean throttled,
    String jobFileCommand) {
  About {
    exitCodes = Collections.unmodifiableSet(EnumSet.copyOf(exitCodes));
  }

  /** A command that ends done, failed or refused (0, 1, 2), reads no job file but its own. */
  static About of(String name, String summary, Class<? extends JsonResult> result) {
    return new About(
        name,
        summary,
        result,
        EnumSet.of(ExitCode.OK, ExitCode.FAILED, ExitCode.USAGE),
        false,
        name);
  }

  /** The same, ending with {@code more} exit codes too. */
  About alsoExits(ExitCode... more) {
    Set<ExitCode> codes = EnumSet.copyOf(exitCodes);
    codes.addAll(java.util.List.of(more));
    return new About(name, summary, result, codes, throttled, jobFileCommand);
  }

  /** The same, taking the throttle options. */
  About throttle() {
    return new About(name, summary, result, exitCodes, true, jobFileCommand);
  }

  /** The same, reading the job files of {@code command}. */
  About jobFilesOf(String command) {
    return new About(name, summary, result, exitCodes, throttled, command);
  }
}
