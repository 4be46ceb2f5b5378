package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.index.IndexDefinition;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example in the documentation must be one a user can copy: each {@code hbase-rekey} command
 * line in a {@code bash} block (through the launcher or spark-submit) names a command and options
 * that exist, each with its value, and is validated as a run would validate it when it names no
 * placeholder and no file outside the project; each {@code properties} block loads and validates as
 * the job file or index definition it is.
 */
class DocExamplesTest {
  private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```");
  private static final Set<String> LAUNCHER_FLAGS = Set.of("--verbose", "-v", "--supervise");
  private static final Pattern PROSE_COMMAND =
      Pattern.compile("`((?:jobs/)?hbase-rekey\\.sh [^`]+)`");

  @TempDir Path dir;

  @Test
  void everyExampleInTheDocsParses() throws Exception {
    List<String> problems = new ArrayList<>();
    int commandLines = 0;
    int propertiesBlocks = 0;
    int proseCommands = 0;
    for (Path doc : docs()) {
      Matcher block = FENCE.matcher(Files.readString(doc));
      while (block.find()) {
        String where = doc + " (a " + block.group(1) + " block)";
        if (block.group(1).equals("bash")) {
          for (List<String> args : commandLines(block.group(2))) {
            commandLines++;
            check(args)
                .ifPresent(p -> problems.add(where + ": " + String.join(" ", args) + ": " + p));
          }
        } else if (block.group(1).equals("properties")) {
          propertiesBlocks++;
          checkProperties(block.group(2)).ifPresent(p -> problems.add(where + ": " + p));
        }
      }
      // The commands the prose names in `code`, outside the blocks: they are copied too.
      Matcher span = PROSE_COMMAND.matcher(FENCE.matcher(Files.readString(doc)).replaceAll(""));
      while (span.find()) {
        for (List<String> args : commandLines(span.group(1))) {
          if (args.get(0).matches("[A-Z][A-Z_-]*")) {
            continue; // a synopsis (COMMAND, SPARK-SUBMIT OPTIONS), not a command
          }
          commandLines++;
          proseCommands++;
          check(args)
              .ifPresent(p -> problems.add(doc + " (prose): " + String.join(" ", args) + ": " + p));
        }
      }
    }
    assertThat(proseCommands).as("hbase-rekey commands named in prose").isPositive();
    assertThat(problems).as("examples that a user could not run as shown").isEmpty();
    assertThat(commandLines).as("hbase-rekey command lines found").isGreaterThan(40);
    assertThat(propertiesBlocks).isPositive();
  }

  /** The checks can fail: a comment after a value, an option that does not exist. */
  @Test
  void brokenExamplesAreCaught() throws Exception {
    String indexDefinition =
        "source = demo:messages\ncolumn = m:sender\nindex-table = demo:by_sender\n"
            + "safety-lag = 60   # seconds\n";
    assertThat(checkProperties(indexDefinition)).get().asString().contains("safety-lag");
    assertThat(check(List.of("rekey", "--job-file", "conf/jobs/rekey-demo.properties", "--dryrun")))
        .get()
        .asString()
        .contains("--dryrun");
    assertThat(commandLines("jobs/hbase-rekey.sh --master yarn audit \\\n  --tabel t # x\n"))
        .containsExactly(List.of("audit", "--tabel", "t"));
  }

  /** README's exit-code table is the one home of those facts, and says what ExitCode says. */
  @Test
  void theReadmesExitCodeTableIsExitCode() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    String table =
        readme.substring(readme.indexOf("## Exit codes"), readme.indexOf("## Read more"));
    List<String> expected = new ArrayList<>();
    for (ExitCode c : ExitCode.values()) {
      expected.add("| `" + c.code() + "` | " + c.meaning() + " | " + c.action() + " |");
    }
    assertThat(table.lines().filter(l -> l.startsWith("| `")).toList()).isEqualTo(expected);
  }

  /**
   * The launcher splits a line where this test does: its own split (jobs/lib/common.sh), run in
   * bash, leaves the same words to the tool, so {@code --version} before any command reaches it.
   */
  @Test
  void theLauncherHandsTheToolTheWordsTheTestChecks() throws Exception {
    for (String line :
        List.of(
            "--version",
            "version",
            "--help",
            "--master yarn --conf a=b describe --table t",
            "--master=local[2] -v audit --table t --fail-on warn")) {
      Process p =
          new ProcessBuilder(
                  "bash",
                  "-c",
                  "set -f; source jobs/lib/common.sh && rekey_split_args $1 && printf '%s\\n'"
                      + " \"${REKEY_COMMAND_ARGS[@]}\"",
                  "split",
                  line)
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor()).as(line + ": " + out).isZero();
      assertThat(out.lines().filter(w -> !w.isEmpty()).toList())
          .as(line)
          .isEqualTo(commandLines("jobs/hbase-rekey.sh " + line).get(0));
    }
  }

  private static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(Path.of("README.md"), Path.of("deploy/README.md")));
    try (Stream<Path> pages = Files.list(Path.of("src/site/markdown"))) {
      pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  /**
   * The tool's arguments of every command line in a bash block that runs it: after {@code
   * jobs/hbase-rekey.sh} and the spark-submit options before the command word, or after {@code
   * spark-submit}'s application jar. Variables set earlier in the block are substituted.
   */
  static List<List<String>> commandLines(String block) {
    List<List<String>> lines = new ArrayList<>();
    Map<String, String> vars = new HashMap<>();
    for (String line : block.replace("\\\n", " ").split("\n")) {
      List<String> words = words(line, vars);
      if (words.size() == 1 && words.get(0).matches("[A-Z_]+=.*")) {
        vars.put(words.get(0).split("=", 2)[0], words.get(0).split("=", 2)[1]);
        continue;
      }
      int at = -1;
      for (int i = 0; i < words.size() && at < 0; i++) {
        if (words.get(i).endsWith("jobs/hbase-rekey.sh")) {
          at = i + 1;
          while (at < words.size()
              && words.get(at).startsWith("-")
              && !words.get(at).matches("--help|-h|--version")) {
            at += LAUNCHER_FLAGS.contains(words.get(at)) ? 1 : 2;
          }
        } else if (words.get(i).endsWith("spark-submit")) {
          for (int j = i + 1; j < words.size() && at < 0; j++) {
            if (words.get(j).endsWith(".jar") && !words.get(j - 1).startsWith("-")) {
              at = j + 1;
            }
          }
        }
      }
      if (at >= 0 && at < words.size()) {
        lines.add(
            words.subList(at, words.size()).stream()
                .map(w -> w.replace("[", "").replace("]", ""))
                .filter(w -> !w.isEmpty() && !w.equals("..."))
                .toList());
      }
    }
    return lines;
  }

  /**
   * A line's shell words: quotes removed, a comment dropped, {@code $VAR} of the block replaced.
   */
  private static List<String> words(String line, Map<String, String> vars) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else if (c == '#' && word == null) {
        break;
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words.stream()
        .map(
            w ->
                w.startsWith("$") && vars.containsKey(w.substring(1))
                    ? vars.get(w.substring(1))
                    : w)
        .toList();
  }

  /**
   * What is wrong with a command line, if anything: parsed always, validated as a run would when
   * every value is real (no placeholder such as {@code FILE}, {@code <bucket>}, {@code a|b} or
   * {@code $X}, no file or directory outside the project or made at run time under {@code var/}, no
   * Hadoop URI).
   */
  private static Optional<String> check(List<String> args) {
    boolean real =
        args.stream()
            .noneMatch(
                w ->
                    w.matches("[A-Z][A-Z_]*")
                        || w.contains("<")
                        || w.contains("|")
                        || w.startsWith("$")
                        || w.startsWith("/")
                        || w.startsWith("var/")
                        || w.contains("://")
                        || (w.endsWith(".properties") && !Files.exists(Path.of(w))));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ExitCode code =
        new Main(
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of(),
                real ? Main.Depth.VALIDATE : Main.Depth.PARSE)
            .run(args.toArray(String[]::new));
    String said = err.toString(StandardCharsets.UTF_8);
    return code == ExitCode.OK
        ? Optional.empty()
        : Optional.of(said.lines().filter(l -> l.startsWith("error:")).findFirst().orElse(said));
  }

  /** A job file (it names its command) or an index definition, validated as a run reads it. */
  private Optional<String> checkProperties(String text) throws IOException {
    Properties props = new Properties();
    props.load(new StringReader(text));
    Path file =
        Files.writeString(dir.resolve("example-" + System.nanoTime() + ".properties"), text);
    try {
      String command = props.getProperty(OptionValues.COMMAND_KEY);
      if (command != null) {
        new Main(System.out, System.err, Map.of()).checkJobFile(command.trim(), file);
      } else {
        IndexDefinition.from(
            IndexDefinition.withDefinitionFile(OptionValues.empty().with("def", file.toString()))
                .validate(IndexDefinition.declaredWithFile()));
      }
      return Optional.empty();
    } catch (InvalidOptionException e) {
      return Optional.of(e.getMessage());
    }
  }
}
