package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AuditOptionsTest {
  static AuditOptions parse(String... pairs) {
    OptionValues v = OptionValues.empty();
    for (int i = 0; i < pairs.length; i += 2) {
      v = v.with(pairs[i], pairs[i + 1]);
    }
    return AuditOptions.from(v.validate(AuditOptions.declared()));
  }

  @Test
  void defaultsReadASnapshotOfEverythingAndSimulateTheStandardLayouts() {
    AuditOptions o = parse("table", "demo:messages");
    assertThat(o.read()).isEqualTo(ReadMode.SNAPSHOT);
    assertThat(o.sampling().mode()).isEqualTo("all");
    assertThat(o.out().local()).isEqualTo(Path.of("var", "audit", "demo_messages"));
    assertThat(o.failOn()).isEqualTo(AuditOptions.FailOn.NEVER);
    assertThat(o.candidates())
        .extracting(LayoutSimulator.Candidate::targetSpec)
        .containsExactly(
            "key", "salt(8) + key", "salt(16) + key", "salt(32) + key", "salt(64) + key");
  }

  @Test
  void givenCandidatesComeFirstAndTheFirstFieldAddsItsOwn() {
    AuditOptions o =
        parse(
            "table",
            "t",
            "source-key",
            "text: user + '_' + ts:long",
            "candidate",
            "salt(4, user) + user + reverse_ts(ts)");
    assertThat(o.candidates().get(0).targetSpec())
        .isEqualTo("salt(4, user) + user + reverse_ts(ts)");
    assertThat(o.candidates())
        .extracting(LayoutSimulator.Candidate::targetSpec)
        .contains("salt(16, user) + key", "reverse(user) + key");
  }

  @Test
  void badInputNamesTheOptionTheValueAndTheFix() {
    assertThatThrownBy(() -> parse("table", "t", "candidate", "salt(16, user) + key"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--candidate")
        .hasMessageContaining("salt(16, user) + key")
        .hasMessageContaining("give --source-key");
    assertThatThrownBy(() -> parse("table", "t", "source-key", "text: user +"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--source-key");
    assertThatThrownBy(() -> parse("table", "t", "sample-fraction", "0"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--sample-fraction")
        .hasMessageContaining("above 0");
    assertThatThrownBy(() -> parse("table", "t", "sample-fraction", "0.1", "rows-per-split", "5"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("choose one");
    assertThatThrownBy(() -> parse("table", "t", "fail-on", "sometimes"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("never|warn|error");
  }
}
