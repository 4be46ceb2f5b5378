package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.CliRun;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CLI's contract without a cluster: usage, exit codes and one-line errors. */
class MainTest {
  @Test
  void noArgumentsPrintsUsageAndExits2() {
    CliRun run = CliRun.of();
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("Usage: hbase-rekey COMMAND", "describe", "generate");
  }

  @Test
  void rootHelpExits0() {
    CliRun run = CliRun.of("--help");
    assertThat(run.exit()).isEqualTo(ExitCode.OK);
    assertThat(run.out()).contains("Commands:", "describe", "generate");
  }

  @Test
  void commandHelpListsOptionsWithDefaults() {
    CliRun run = CliRun.of("generate", "--help");
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "hbase-rekey generate", "--table", "--rows", "(default: 10000)", "--zk", "--job-file");
  }

  /** The throttles are declared once and offered by exactly the commands that press on servers. */
  @Test
  void theThrottleOptionsComeWithTheCommandsThatWriteOrScanThroughRegionServers() {
    List<String> throttled =
        List.of(
            "audit",
            "rekey",
            "rekey sync",
            "rekey repair",
            "verify",
            "index build",
            "index update",
            "index scrutiny",
            "stream start");
    for (String command : new Main(System.out, System.err, Map.of()).commands().keySet()) {
      List<String> args = new ArrayList<>(List.of(command.split(" ")));
      args.add("--help");
      String help = CliRun.of(args.toArray(String[]::new)).out();
      boolean offered = help.contains("--gentle") && help.contains("--write-rate");
      assertThat(offered)
          .as(command + " --help offers the throttles")
          .isEqualTo(throttled.contains(command));
    }
    CliRun bad = CliRun.of("rekey", "sync", "--write-rate", "fast");
    assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).startsWith("error: --write-rate is 'fast' but must be a whole number");
  }

  /** The tool's own settings come from its options: --hbase-set cannot slip them past. */
  @Test
  void hbaseSetRefusesTheToolsOwnSettingsNamingTheOptionToUse() {
    CliRun throttle =
        CliRun.of(
            "rekey",
            "--source",
            "a",
            "--target",
            "b",
            "--source-key",
            "text: ts:long + '_' + order",
            "--target-key",
            "order + reverse_ts(ts)",
            "--gentle",
            "--hbase-set",
            "rekey.throttle.write-rate=100000");
    assertThat(throttle.exit()).as(throttle.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(throttle.err())
        .contains(
            "--hbase-set is 'rekey.throttle.write-rate=100000' but rekey.* settings are the"
                + " tool's own: use --write-rate instead")
        .doesNotContain("\tat ");
    CliRun internal =
        CliRun.of("describe", "--table", "t", "--hbase-set", "rekey.bulkload.attempts=1");
    assertThat(internal.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(internal.err()).contains("no option sets this one: leave it out");
    String[] verify = {
      "verify", "--source", "a", "--target", "b", "--source-key", "id", "--target-key", "id"
    };
    CliRun compared = CliRun.of(with(verify, "--hbase-set", "rekey.compare.snapshot.min.bytes=0"));
    assertThat(compared.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(compared.err()).contains("use --target-snapshot-mib instead");
    CliRun negative = CliRun.of(with(verify, "--target-snapshot-mib", "-1"));
    assertThat(negative.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(negative.err())
        .startsWith("error: --target-snapshot-mib is '-1' but must be between 0 and");
  }

  private static String[] with(String[] command, String... more) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  /**
   * Every command's help ends with its exit codes: the ones every command has, 3 for those that
   * take a lock, 4 for those that compare or judge.
   */
  @Test
  void everyCommandsHelpListsItsExitCodes() {
    Map<String, String> lockOrFindings =
        Map.of(
            "rekey", "34",
            "rekey sync", "34",
            "rekey repair", "34",
            "verify", "4",
            "audit", "4",
            "index build", "3",
            "index update", "3",
            "index scrutiny", "34",
            "index lookup", "4");
    String root = CliRun.of("--help").out();
    assertThat(root).contains("Exit codes:", "  4  the job finished and found differences");
    for (String command :
        List.of(
            "describe",
            "generate",
            "layout",
            "audit",
            "rekey",
            "rekey sync",
            "rekey repair",
            "verify",
            "status",
            "index build",
            "index update",
            "index scrutiny",
            "index lookup",
            "state")) {
      List<String> args = new ArrayList<>(List.of(command.split(" ")));
      args.add("--help");
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
      String codes = run.out().substring(run.out().indexOf("Exit codes:"));
      String expected = "012" + lockOrFindings.getOrDefault(command, "");
      for (ExitCode code : ExitCode.values()) {
        assertThat(codes.contains("\n  " + code.code() + "  " + code.meaning()))
            .as(command + " --help lists exit code " + code.code() + ":\n" + codes)
            .isEqualTo(expected.indexOf('0' + code.code()) >= 0);
      }
      assertThat(run.out())
          .contains(
              "the JSON Schema io/rekey/schema/" + command.replace(' ', '-') + ".schema.json");
    }
  }

  /**
   * The version and commit, and the cell's versions, which must be those of the Spark, HBase and
   * Hadoop this build runs with.
   */
  @Test
  void versionNamesTheBuildAndItsCell() {
    CliRun run = CliRun.of("--version");
    assertThat(run.exit()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .startsWith("hbase-rekey 0.1.0-SNAPSHOT (commit ")
        .contains(
            ": Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION() + " (Scala ",
            "HBase client " + org.apache.hadoop.hbase.util.VersionInfo.getVersion(),
            "Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion(),
            "Java 17")
        .doesNotContain("unknown", "${");
  }

  @Test
  void unknownCommandExits2() {
    CliRun run = CliRun.of("rekye");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err())
        .contains(
            "unknown command 'rekye' (did you mean rekey?); the commands are: status, describe, generate, layout, audit, rekey, rekey sync, rekey repair, verify");
  }

  @Test
  void unknownOptionExits2WithUsage() {
    CliRun run = CliRun.of("describe", "--tabel", "x");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err())
        .contains(
            "error: Unknown option --tabel (did you mean --table?)", "Usage: hbase-rekey describe");
  }

  @Test
  void anUnknownOptionFarFromEveryKnownOneGetsNoGuess() {
    CliRun run = CliRun.of("describe", "--zebra-stripes", "x");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("error: Unknown option --zebra-stripes").doesNotContain("mean");
  }

  @Test
  void missingRequiredOptionExits2() {
    CliRun run = CliRun.of("describe");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err())
        .contains("error: --table is missing", "run 'hbase-rekey describe --help'");
  }

  @Test
  void badValuesExit2BeforeAnyWork() {
    assertThat(CliRun.of("generate", "--table", "t", "--rows", "0").err())
        .contains("error: --rows is '0' but must be between 1 and 1000000000");
    CliRun badTable = CliRun.of("describe", "--table", "bad name!");
    assertThat(badTable.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(badTable.err())
        .contains("--table is 'bad name!' but is not a legal HBase table name");
    CliRun badZk = CliRun.of("describe", "--table", "t", "--zk", "localhost:99999");
    assertThat(badZk.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(badZk.err()).contains("--zk is 'localhost:99999' but has port '99999'");
    CliRun badConfDir = CliRun.of("describe", "--table", "t", "--hbase-conf", "/nonexistent");
    assertThat(badConfDir.err())
        .contains("--hbase-conf is '/nonexistent' but holds no hbase-site.xml");
  }

  @Test
  void hbaseConfDirComesFromTheEnvironmentToo() {
    CliRun run =
        CliRun.withEnv(Map.of("HBASE_CONF_DIR", "/nonexistent"), "describe", "--table", "t");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("--hbase-conf is '/nonexistent'");
  }

  @Test
  void unreachableClusterExits1WithOneClearLineNamingTheLog() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CliRun run = CliRun.of("describe", "--table", "ns:t", "--zk", "127.0.0.1:" + port);
    assertThat(run.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(run.err().strip())
        .isEqualTo(
            "error: describe: cannot reach ZooKeeper 127.0.0.1:"
                + port
                + " (--zk): is HBase running? Start the local one with 'jobs/hbase-local.sh"
                + " start', or point at a cluster with --zk host:port or --hbase-conf DIR"
                + " (log: "
                + Main.LOG_FILE
                + ")");
  }
}
