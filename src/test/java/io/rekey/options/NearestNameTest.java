package io.rekey.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestNameTest {
  private static final List<String> OPTIONS =
      List.of("table", "target", "target-key", "source-key", "safety-lag", "state-table");

  @Test
  void aTypoFindsTheOptionMeant() {
    assertThat(NearestName.of("tabel", OPTIONS)).contains("table");
    assertThat(NearestName.of("safty-lag", OPTIONS)).contains("safety-lag");
    assertThat(NearestName.of("target_key", OPTIONS)).contains("target-key");
    assertThat(NearestName.of("Source-Key", OPTIONS)).contains("source-key");
  }

  @Test
  void anAbbreviationFindsTheShortestNameItBegins() {
    assertThat(NearestName.of("targ", OPTIONS)).contains("target");
    assertThat(NearestName.of("state", OPTIONS)).contains("state-table");
  }

  @Test
  void nothingNearGivesNoGuess() {
    assertThat(NearestName.of("zebra", OPTIONS)).isEmpty();
    assertThat(NearestName.of("json", OPTIONS)).isEmpty();
    assertThat(NearestName.hint("zebra", OPTIONS, "--")).isEmpty();
    assertThat(NearestName.hint("tabel", OPTIONS, "--")).isEqualTo(" (did you mean --table?)");
  }
}
