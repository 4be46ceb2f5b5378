package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code layout} on the README's example designs, without a cluster. */
class LayoutCommandTest {
  @TempDir Path dir;

  static CliRun layout(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "layout";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRun.of(all);
  }

  /**
   * A job file named with --job-file, or with its deprecated name --conf, which warns once; both at
   * once is refused.
   */
  @Test
  void jobFileByItsNameAndByItsDeprecatedName() throws Exception {
    Path job = dir.resolve("layout.properties");
    Files.writeString(
        job,
        String.join(
            "\n",
            "command = layout",
            "source-key = text: ts:long + '_' + user",
            "target-key = user + reverse_ts(ts)",
            "key = 1616124723000_user001",
            ""));
    CliRun named = CliRun.of("layout", "--job-file", job.toString());
    assertThat(named.exit()).as(named.toString()).isEqualTo(ExitCode.OK);
    assertThat(named.err()).doesNotContain("warning");

    CliRun old = CliRun.of("layout", "--conf", job.toString());
    assertThat(old.exit()).as(old.toString()).isEqualTo(ExitCode.OK);
    assertThat(old.out()).isEqualTo(named.out());
    assertThat(old.err().lines().filter(l -> l.startsWith("warning: ")).toList())
        .containsExactly(
            "warning: --conf after the command is deprecated: name the job file with --job-file "
                + job
                + " (before the command, --conf K=V stays spark-submit's)");

    CliRun both = CliRun.of("layout", "--conf", job.toString(), "--job-file", job.toString());
    assertThat(both.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(both.err()).startsWith("error: --conf (after the command) is the old name of");
  }

  @Test
  void timeFirstKeyToSaltedUserKey() throws Exception {
    Path json = dir.resolve("layout.json");
    CliRun run =
        layout(
            "--source-key", "text: ts:long + '_' + user + '_' + order",
            "--target-key", "salt(16, user) + user + reverse_ts(ts) + order",
            "--key", "1616124723000_user001_order001",
            "--scan", "user=user001",
            "--json", json.toString());
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "Injective: yes: the new key keeps every field of the old key (ts, user, order)",
            "Decodable: yes",
            "new     '\\x0Buser001\\x00\\x01\\x7F\\xFF\\xFE\\x87\\xB7u\\xC0\\xC7order001'",
            "(26 bytes)",
            "decoded user=user001 ts=1616124723000 order=order001",
            "Split points (16 regions)",
            "Scan for user=user001: 1 range(s)");
    JsonNode node = Json.mapper().readTree(json.toFile());
    assertThat(node.get("injective").asBoolean()).isTrue();
    assertThat(node.at("/keys/0/newKey/hex").asText())
        .isEqualTo("0b7573657230303100017ffffe87b775c0c76f72646572303031");
    assertThat(node.get("splitPoints").size()).isEqualTo(15);
    assertThat(node.at("/scan/ranges").size()).isEqualTo(1);
  }

  @Test
  void metricKey() {
    CliRun run =
        layout(
            "--source-key", "text: metric + '|' + ts:long + '|' + device",
            "--target-key", "metric + reverse_ts(ts) + device",
            "--key", "cpu.load|1767225600000|dev42",
            "--key", "cpu.load|1767225600001|dev42",
            "--splits", "2");
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "decoded metric=cpu.load ts=1767225600000 device=dev42", "Split points (2 regions)");
  }

  @Test
  void phoneNumber() {
    CliRun run =
        layout(
            "--source-key",
            "text: phone",
            "--target-key",
            "text: reverse(phone)",
            "--key",
            "13812345678");
    assertThat(run.out()).contains("new     '87654321831'", "Injective: yes");
  }

  @Test
  void binaryUserId() {
    CliRun run =
        layout(
            "--source-key", "userId:long + ts:long",
            "--target-key", "hash(userId, bytes=2) + userId + reverse_ts(ts)",
            "--key", "\\x00\\x00\\x00\\x00\\x00\\x00\\x00*\\x00\\x00\\x01\\x9Bv\\xDA\\xA8\\x00",
            "--splits", "4");
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "decoded userId=42 ts=1767225600000",
            "(18 bytes)",
            "Split points (4 regions)",
            "'@\\x00' hex 4000");
  }

  @Test
  void conversationKeyIsFlaggedNotInjective() {
    CliRun run =
        layout(
            "--source-key", "text: user_a + '_' + user_b + '_' + ts:long + '_' + msgid",
            "--target-key", "hash_pair(user_a, user_b, bytes=16) + reverse_ts(ts) + msgid",
            "--key", "alice_bob_1767225600000_m1",
            "--key", "bob_alice_1767225600000_m1");
    assertThat(run.exit()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "Injective: no: the new key does not keep user_a, user_b",
            "Decodable: no: user_a, user_b only hashed, not kept");
    // (a, b) and (b, a) give the same key.
    String[] news =
        run.out().lines().filter(l -> l.trim().startsWith("new")).toArray(String[]::new);
    assertThat(news).hasSize(2);
    assertThat(news[0]).isEqualTo(news[1]);
  }

  @Test
  void indexKeyWithAColumnValue() {
    CliRun run =
        layout(
            "--source-key", "text: ts:long + '_' + user + '_' + msgid ; sender = m:sender",
            "--target-key", "sender + reverse_ts(ts) + key",
            "--key", "1767225600000_user7_abc",
            "--column", "m:sender=bob",
            "--scan", "sender=bob",
            "--scan", "ts=2026-01-01T00:00:00Z..2026-01-02T00:00:00Z");
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "decoded sender=bob ts=1767225600000 key=1767225600000_user7_abc",
            "Injective: yes: the new key keeps the whole old key",
            "Scan for sender=bob ts=1767225600000..1767312000000: 1 range(s)");
  }

  @Test
  void badSpecsAreUsageErrorsNamingTheOption() {
    CliRun run =
        layout("--source-key", "text: ts:long + '_' + sender", "--target-key", "salt(0, sender)");
    assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err())
        .contains(
            "error: --target-key is 'salt(0, sender)' but cannot be used: salt buckets is 0 but"
                + " must be 1..256 (column 6)");
    CliRun unknown =
        layout("--source-key", "text: ts:long + '_' + sender", "--target-key", "sendr");
    assertThat(unknown.err())
        .contains("unknown field 'sendr'; known fields: sender, ts (column 1)");
    CliRun badScan =
        layout("--source-key", "text: a + '_' + b", "--target-key", "a + b", "--scan", "c=1");
    assertThat(badScan.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(badScan.err()).contains("--scan is 'c=1' but unknown field 'c'; known fields: a, b");
    CliRun unsampled =
        layout("--source-key", "text: a + '_' + b", "--target-key", "a + b", "--splits", "4");
    assertThat(unsampled.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(unsampled.err()).contains("split points come from a sample of new keys");
  }
}
