package io.rekey.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionValuesTest {
  enum Mode {
    SNAPSHOT,
    LIVE_SCAN
  }

  static final OptionDef<String> TABLE = OptionDef.text("table", "NS:T", "the table").required();
  static final OptionDef<Long> BUCKETS =
      OptionDef.number("salt-buckets", "N", "buckets", 1, 256).withDefault(16L);
  static final OptionDef<Boolean> DRY = OptionDef.flag("dry-run", "plan only");
  static final OptionDef<String> CANDIDATE =
      OptionDef.text("candidate", "SPEC", "a layout").repeatable();
  static final OptionDef<Mode> MODE =
      OptionDef.choice("read-mode", "how to read", Mode.class, Mode.SNAPSHOT);
  static final List<OptionDef<?>> ALL = List.of(TABLE, BUCKETS, DRY, CANDIDATE, MODE);

  @TempDir Path dir;

  @Test
  void defaultsApplyWhenUnset() {
    OptionValues v = OptionValues.empty().with("table", "ns:t").validate(ALL);
    assertThat(v.get(BUCKETS)).isEqualTo(16L);
    assertThat(v.get(DRY)).isFalse();
    assertThat(v.get(MODE)).isEqualTo(Mode.SNAPSHOT);
    assertThat(v.getAll(CANDIDATE)).isEmpty();
    assertThat(v.isSet(BUCKETS)).isFalse();
  }

  @Test
  void numberOutOfRangeNamesOptionValueAndRange() {
    assertThatThrownBy(
            () -> OptionValues.empty().with("table", "t").with("salt-buckets", "0").validate(ALL))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessage("--salt-buckets is '0' but must be between 1 and 256 (both included)");
  }

  @Test
  void numberThatIsNotANumber() {
    assertThatThrownBy(
            () -> OptionValues.empty().with("table", "t").with("salt-buckets", "ten").validate(ALL))
        .hasMessage("--salt-buckets is 'ten' but must be a whole number");
  }

  @Test
  void missingRequiredOptionSaysWhereToGiveIt() {
    assertThatThrownBy(() -> OptionValues.empty().validate(ALL))
        .hasMessage(
            "--table is missing; give it on the command line or in the --job-file file (the table)");
  }

  @Test
  void singleValuedOptionGivenTwiceIsRefused() {
    assertThatThrownBy(
            () -> OptionValues.empty().with("table", "a").with("table", "b").validate(ALL))
        .hasMessage("--table is given 2 times but takes one value");
  }

  @Test
  void repeatableOptionKeepsOrder() {
    OptionValues v =
        OptionValues.empty()
            .with("table", "t")
            .with("candidate", "a")
            .with("candidate", "b")
            .validate(ALL);
    assertThat(v.getAll(CANDIDATE)).containsExactly("a", "b");
  }

  @Test
  void choiceListsTheChoices() {
    assertThatThrownBy(
            () -> OptionValues.empty().with("table", "t").with("read-mode", "fast").validate(ALL))
        .hasMessage("--read-mode is 'fast' but must be one of snapshot|live-scan");
    assertThat(OptionValues.empty().with("read-mode", "live-scan").get(MODE))
        .isEqualTo(Mode.LIVE_SCAN);
  }

  @Test
  void jobFileValuesAreUnderCommandLineValues() throws Exception {
    Path file = dir.resolve("job.properties");
    Files.writeString(
        file,
        "# a job\ncommand = rekey\ntable = ns:from_file\nsalt-buckets = 32\n"
            + "candidate = a; b\ndry-run = true\n");
    OptionValues fromFile = OptionValues.fromFile(file, "rekey", ALL);
    OptionValues merged =
        OptionValues.empty().with("table", "ns:from_cli").over(fromFile).validate(ALL);
    assertThat(merged.get(TABLE)).isEqualTo("ns:from_cli");
    assertThat(merged.get(BUCKETS)).isEqualTo(32L);
    assertThat(merged.get(DRY)).isTrue();
    assertThat(merged.getAll(CANDIDATE)).containsExactly("a", "b");
  }

  @Test
  void jobFileWithUnknownKeyListsTheKnownOnes() throws Exception {
    Path file = dir.resolve("bad.properties");
    Files.writeString(file, "tabel = ns:t\n");
    assertThatThrownBy(() -> OptionValues.fromFile(file, "rekey", ALL))
        .hasMessage(
            file
                + ": unknown key 'tabel' (did you mean table?) for 'rekey'; known keys: candidate, dry-run, read-mode,"
                + " salt-buckets, table");
  }

  @Test
  void aKeyGivenTwiceInAJobFileIsRefusedNotSilentlyDropped() throws Exception {
    Path file = dir.resolve("twice.properties");
    Files.writeString(file, "table = ns:t\ncandidate = a\ncandidate = b\n");
    assertThatThrownBy(() -> OptionValues.fromFile(file, "rekey", ALL))
        .hasMessageContaining("sets candidate more than once")
        .hasMessageContaining("separated by ';'");
  }

  @Test
  void jobFileForAnotherCommandIsRefused() throws Exception {
    Path file = dir.resolve("audit.properties");
    Files.writeString(file, "command = audit\ntable = ns:t\n");
    assertThatThrownBy(() -> OptionValues.fromFile(file, "rekey", ALL))
        .hasMessageContaining("that file is for the 'audit' command, not 'rekey'");
  }

  @Test
  void missingJobFileSaysSo() {
    Path file = dir.resolve("nope.properties");
    assertThatThrownBy(() -> OptionValues.fromFile(file, "rekey", ALL))
        .hasMessage(
            "--job-file is '"
                + file
                + "' but that file does not exist; give the path of a job file");
  }

  @Test
  void unknownOptionIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> OptionValues.empty().with("tabel", "x").validate(ALL))
        .hasMessageStartingWith(
            "unknown option --tabel (did you mean --table?); known options: --table, --salt-buckets");
  }

  @Test
  void flagAcceptsTrueFalseOnly() {
    assertThat(OptionValues.empty().with("dry-run", "false").get(DRY)).isFalse();
    assertThatThrownBy(() -> OptionValues.empty().with("dry-run", "maybe").get(DRY))
        .hasMessage("--dry-run is 'maybe' but must be true or false");
  }

  @Test
  void helpTextShowsDefaultsAndRequired() {
    assertThat(BUCKETS.helpText()).isEqualTo("buckets (default: 16)");
    assertThat(TABLE.helpText()).isEqualTo("the table (required)");
    assertThat(MODE.helpText()).isEqualTo("how to read (default: snapshot)");
  }
}
