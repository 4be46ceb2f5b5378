package io.rekey.testing;

import io.rekey.cli.ExitCode;
import io.rekey.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One in-process run of the CLI with its output captured.
 *
 * @param exit how it ended
 * @param out what it printed on stdout
 * @param err what it printed on stderr
 */
public record CliRun(ExitCode exit, String out, String err) {
  public static CliRun of(String... args) {
    return withEnv(Map.of(), args);
  }

  public static CliRun withEnv(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ExitCode exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = new Main(o, e, env).run(args);
    }
    return new CliRun(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
