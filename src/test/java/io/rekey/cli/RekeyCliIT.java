package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** rekey and verify through the CLI: the summary, the JSON and the exit codes. */
@ExtendWith(MiniHBase.class)
class RekeyCliIT {
  static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";
  static final String TARGET_KEY = "salt(4, sender) + sender + reverse_ts(ts) + msgid";

  @TempDir Path dir;

  static String[] cluster(String... args) {
    SparkLocal.context(); // the CLI picks up the test JVM's local Spark session
    Map<String, String> s = MiniHBase.settings().properties();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--zk", MiniHBase.zkQuorum()));
    s.forEach((k, v) -> all.addAll(List.of("--hbase-set", k + "=" + v)));
    return all.toArray(new String[0]);
  }

  /** {@code rekey} of cli:messages into {@code target} with the given specs. */
  static String[] rekey(String target, String sourceKey, String targetKey, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "rekey",
                "--source",
                "cli:messages",
                "--target",
                target,
                "--source-key",
                sourceKey,
                "--target-key",
                targetKey));
    args.addAll(List.of(more));
    return cluster(args.toArray(new String[0]));
  }

  @Test
  void rekeyThenVerifyThenRefuseBadInput() throws Exception {
    CliRun gen = CliRun.of(cluster("generate", "--table", "cli:messages", "--rows", "300"));
    assertThat(gen.exit()).as(gen.toString()).isEqualTo(ExitCode.OK);

    Path json = dir.resolve("rekey.json");
    CliRun rekey =
        CliRun.of(
            cluster(
                "rekey",
                "--source",
                "cli:messages",
                "--target",
                "cli:by_sender",
                "--source-key",
                SOURCE_KEY,
                "--target-key",
                TARGET_KEY,
                "--json",
                json.toString()));
    assertThat(rekey.exit()).as(rekey.toString()).isEqualTo(ExitCode.OK);
    assertThat(rekey.out())
        .contains(
            "rekey: cli:messages -> cli:by_sender loaded",
            "rows read      300",
            "(adds up)",
            "verify         MATCH");
    JsonNode r = Json.mapper().readTree(json.toFile());
    assertThat(r.get("rowsRead").asLong()).isEqualTo(300);
    assertThat(r.get("cellsWritten").asLong()).isEqualTo(r.get("cellsRead").asLong());
    assertThat(r.at("/verify/matches").asBoolean()).isTrue();
    assertThat(r.at("/plan/splitPoints").size()).isEqualTo(3);

    CliRun verify = verifyThrough(TARGET_KEY);
    assertThat(verify.exit()).as(verify.toString()).isEqualTo(ExitCode.OK);
    assertThat(verify.out()).contains("MATCH: ");

    // Another mapping than the one the copy pinned is refused before any read: exit 2, one line.
    String otherKey = "salt(4, msgid) + sender + reverse_ts(ts) + msgid";
    CliRun refused = verifyThrough(otherKey);
    assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(refused.err())
        .contains("--target-key is 'salt(4, msgid)", "but differs from what cli:by_sender was");
    // Where no copy pinned one (another state table), the same tables differ through it: exit 4,
    // one line saying so.
    CliRun wrong = verifyThrough(otherKey, "--live-scan", "--state-table", "cli_no_state");
    assertThat(wrong.exit()).as(wrong.toString()).isEqualTo(ExitCode.FINDINGS);
    assertThat(wrong.out()).contains("DIFFERENT in");
    assertThat(wrong.err()).contains("error: verify: the target differs from the source in");

    // A bad spec is a usage error before anything runs.
    CliRun bad =
        CliRun.of(
            cluster(
                "rekey",
                "--source",
                "cli:messages",
                "--target",
                "cli:x",
                "--source-key",
                SOURCE_KEY,
                "--target-key",
                "salt(0, sender)"));
    assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err())
        .contains("--target-key is 'salt(0, sender)' but cannot be used: salt buckets is 0");

    // A key spec that fits no row: rejects stop the job, exit 1, nothing loaded.
    String noFit = "binary: ts:long + '_' + rest";
    CliRun rejects = CliRun.of(rekey("cli:rejected", noFit, "rest"));
    assertThat(rejects.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(rejects.err())
        .contains("error: rekey: ", "rows could not be mapped, more than --max-rejects 0");

    // The same spec in a dry run: the plan shows every sample row rejected, and says so, exit 1.
    CliRun dry = CliRun.of(rekey("cli:rejected", noFit, "rest", "--dry-run"));
    assertThat(dry.exit()).as(dry.toString()).isEqualTo(ExitCode.FAILED);
    assertThat(dry.err())
        .contains(
            "error: rekey: every one of the 10 sample rows is rejected (first: ",
            "--source-key does not describe cli:messages's keys");

    // A source key that names a field twice would merge rows: refused before anything runs.
    String twice = "text: ts:long + '_' + sender + '_' + sender";
    CliRun merged = CliRun.of(rekey("cli:twice", twice, "sender + reverse_ts(ts)"));
    assertThat(merged.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(merged.err())
        .contains(
            "--source-key is '"
                + twice
                + "' but cannot be used: field sender is named twice in the source key");
  }

  /** {@code verify} of cli:messages with cli:by_sender through {@code targetKey}. */
  private static CliRun verifyThrough(String targetKey, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "verify",
                "--source",
                "cli:messages",
                "--target",
                "cli:by_sender",
                "--source-key",
                SOURCE_KEY,
                "--target-key",
                targetKey));
    args.addAll(List.of(more));
    return CliRun.of(cluster(args.toArray(new String[0])));
  }
}
