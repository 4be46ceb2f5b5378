package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import org.junit.jupiter.api.Test;

/**
 * Options built in code are the command line's options: the same values, the same defaults and the
 * same one-line refusals, only typed.
 */
class OptionsBuilderTest {
  static OptionsBuilder<SyncOptions> sync() {
    return SyncOptions.builder()
        .set(RekeyOptions.SOURCE, "src")
        .set(RekeyOptions.TARGET, "dst")
        .set(RekeyOptions.SOURCE_KEY, "text: ts:long + '_' + user")
        .set(RekeyOptions.TARGET_KEY, "user + reverse_ts(ts)");
  }

  @Test
  void typedValuesReadAsTheCommandLinesWould() {
    SyncOptions built =
        sync().set(SyncOptions.WRITE, SyncOptions.Write.HFILES).set(SyncOptions.FINAL).build();
    SyncOptions parsed =
        SyncOptions.from(
            OptionValues.empty()
                .with("source", "src")
                .with("target", "dst")
                .with("source-key", "text: ts:long + '_' + user")
                .with("target-key", "user + reverse_ts(ts)")
                .with("write", "hfiles")
                .with("final", "true")
                .validate(SyncOptions.declared()));
    assertThat(built.write()).isEqualTo(SyncOptions.Write.HFILES);
    assertThat(built.finalRun()).isTrue();
    assertThat(built).usingRecursiveComparison().isEqualTo(parsed);
  }

  @Test
  void aBuiltValueTheCommandLineWouldRefuseIsRefusedInTheSameLine() {
    assertThatThrownBy(
            () -> sync().set(SyncOptions.WRITES_STOPPED_AT, "2026-12-01T00:00:00Z").build())
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageStartingWith(
            "--writes-stopped-at is '2026-12-01T00:00:00Z' but only goes with --final");
    assertThatThrownBy(() -> RekeyOptions.builder().set(RekeyOptions.SOURCE, "src").build())
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--target");
  }
}
