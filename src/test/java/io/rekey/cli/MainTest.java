package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.CliRun;
import java.net.ServerSocket;
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
            "hbase-rekey generate", "--table", "--rows", "(default: 10000)", "--zk", "--conf");
  }

  @Test
  void unknownCommandExits2() {
    CliRun run = CliRun.of("rekye");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err())
        .contains(
            "unknown command 'rekye'; the commands are: status, describe, generate, layout, audit, rekey, rekey sync, rekey repair, verify");
  }

  @Test
  void unknownOptionExits2WithUsage() {
    CliRun run = CliRun.of("describe", "--tabel", "x");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("error: Unknown option --tabel", "Usage: hbase-rekey describe");
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
  void unreachableClusterExits1WithOneClearLine() throws Exception {
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
                + " start', or point at a cluster with --zk host:port or --hbase-conf DIR");
  }
}
