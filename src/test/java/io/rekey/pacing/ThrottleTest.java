package io.rekey.pacing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ThrottleTest {
  private static Throttle from(String... kv) {
    OptionValues v = OptionValues.empty();
    for (int i = 0; i < kv.length; i += 2) {
      v = v.with(kv[i], kv[i + 1]);
    }
    return Throttle.from(v.validate(Throttle.declared()));
  }

  @Test
  void nothingGivenIsNoThrottleAndGentleIsThePresetWithGivenOptionsOverIt() {
    assertThat(from()).isEqualTo(Throttle.NONE);
    assertThat(from("gentle", "true")).isEqualTo(Throttle.GENTLE_PRESET);
    Throttle t = from("gentle", "true", "write-rate", "250", "load-pause", "0.5");
    assertThat(t.writeRate()).isEqualTo(250);
    assertThat(t.loadPauseMillis()).isEqualTo(500);
    assertThat(t.scanRate()).isEqualTo(Throttle.GENTLE_PRESET.scanRate());
    assertThat(t.loadRegions()).isEqualTo(1);
    assertThat(from("gentle", "true", "load-regions", "0").loadRegions()).isZero();
    assertThat(Throttle.GENTLE.doc()).contains(Throttle.GENTLE_PRESET.asOptions());
    String[] given = Throttle.GENTLE_PRESET.asOptions().replace("--", "").split(" ");
    OptionValues v = OptionValues.empty();
    for (int i = 0; i < given.length; i++) {
      boolean flag = i + 1 == given.length || given[i + 1].matches("[a-z-]+");
      v = v.with(given[i], flag ? "true" : given[++i]);
    }
    assertThat(Throttle.from(v.validate(Throttle.declared())))
        .as("the options the help names make the preset")
        .isEqualTo(Throttle.GENTLE_PRESET);
  }

  @Test
  void theThrottleTravelsInAHadoopConfiguration() {
    Throttle t = from("write-rate", "100", "scan-rate", "7", "load-per-family", "true");
    Configuration conf = new Configuration(false);
    t.properties().forEach(conf::set);
    assertThat(Throttle.of(conf)).isEqualTo(t);
    assertThat(Throttle.of(new Configuration(false))).isEqualTo(Throttle.NONE);
    assertThat(t.describe()).contains("write-rate 100 cells/s per task", "per family");
  }

  @Test
  void aBadValueIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> from("write-rate", "-5"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--write-rate")
        .hasMessageContaining("-5");
    assertThatThrownBy(() -> from("load-pause", "-1"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--load-pause")
        .hasMessageContaining("must be 0 or more seconds");
    assertThatThrownBy(() -> from("load-regions", "many"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--load-regions")
        .hasMessageContaining("whole number");
  }
}
