package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** What a YARN cluster-mode driver reports instead of exiting. */
class YarnClusterExitTest {
  @Test
  void onlyAYarnClusterModeDriverIsOne() {
    assertThat(YarnClusterExit.applies(props("yarn", "cluster"))).isTrue();
    assertThat(YarnClusterExit.applies(props("yarn", "client"))).isFalse();
    assertThat(YarnClusterExit.applies(props("spark://h:7077", "cluster"))).isFalse();
    assertThat(YarnClusterExit.applies(new Properties())).isFalse();
  }

  @Test
  void theFailureCarriesTheFirstErrorLineAndTheExitCodeAndNoStackTrace() {
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    YarnClusterExit.ErrorLine err =
        new YarnClusterExit.ErrorLine(new PrintStream(shown, true, StandardCharsets.UTF_8));
    new Main(new PrintStream(new ByteArrayOutputStream()), err, java.util.Map.of())
        .run("verify", "--source", "a:b");
    assertThat(shown.toString(StandardCharsets.UTF_8)).startsWith(err.first());
    assertThat(err.first()).startsWith("error: ").doesNotContain("\n");
    YarnClusterExit.CommandFailed f =
        new YarnClusterExit.CommandFailed(ExitCode.USAGE, err.first());
    assertThat(f.getMessage()).isEqualTo(err.first() + " (hbase-rekey exit code 2)");
    assertThat(f.getStackTrace()).isEmpty();
  }

  @Test
  void theApplicationIsNamedByTheWordsBeforeTheFirstOption() {
    assertThat(YarnClusterExit.applicationName("p", new String[] {"index", "update", "--def", "x"}))
        .isEqualTo("p index update");
    assertThat(YarnClusterExit.applicationName("p", new String[] {"--help"})).isEqualTo("p");
  }

  private static Properties props(String master, String mode) {
    Properties p = new Properties();
    p.setProperty("spark.master", master);
    p.setProperty("spark.submit.deployMode", mode);
    return p;
  }
}
