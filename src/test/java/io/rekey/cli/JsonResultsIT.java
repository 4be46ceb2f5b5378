package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.ResultSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command, run through the CLI on a real cluster with {@code --json}, writes a result that
 * the JSON Schema shipped in the jar accepts (validated by networknt's json-schema-validator), and
 * carries {@code schemaVersion}. The test fails when a command is added without being run here.
 */
@ExtendWith(MiniHBase.class)
class JsonResultsIT {
  private static final String SOURCE_KEY = RekeyCliIT.SOURCE_KEY;
  private static final String TARGET_KEY = RekeyCliIT.TARGET_KEY;
  private static final String STATE = "js_state";

  @TempDir Path dir;
  private final Set<String> validated = new LinkedHashSet<>();

  @Test
  void everyCommandsJsonResultConformsToItsShippedSchema() throws Exception {
    json("status");
    JsonNode generated = json("generate", "--table", "js:messages", "--rows", "300", "--seed", "5");
    String sender = generated.at("/topSenders/0/sender").asText();
    json("describe", "--table", "js:messages");
    json(
        "layout",
        "--source-key",
        SOURCE_KEY,
        "--target-key",
        TARGET_KEY,
        "--key",
        "1700000000000_user1_m1");
    json("audit", "--table", "js:messages", "--source-key", SOURCE_KEY, "--out", dir + "/audit");
    String[] mapping = {
      "--source",
      "js:messages",
      "--target",
      "js:by_sender",
      "--source-key",
      SOURCE_KEY,
      "--target-key",
      TARGET_KEY
    };
    String[] migration = concat(mapping, "--state-table", STATE);
    json("rekey", migration);
    json("rekey sync", migration);
    json("rekey repair", migration);
    json("verify", migration);
    String[] index = {
      "--source",
      "js:messages",
      "--column",
      "m:sender",
      "--index-table",
      "js:by_sender_ix",
      "--state-table",
      STATE
    };
    json("index build", index);
    json("index update", index);
    json("index scrutiny", index);
    json("index lookup", concat(index, "--value", sender));
    json("stream start", concat(mapping, "--no-copy", "--state-table", STATE));
    json("stream status", "--target", "js:by_sender");
    // The verify above is the target's last comparison; nothing writes the source meanwhile.
    json("stream switch", "--target", "js:by_sender", "--state-table", STATE);
    json("stream stop", "--target", "js:by_sender");
    JsonNode state = json("state", "--table", "js:by_sender", "--state-table", STATE);
    assertThat(state.get("watermark").isNumber()).isTrue();

    assertThat(validated).isEqualTo(ResultSchemasTest.commands().keySet());
  }

  /** Runs {@code command} with {@code --json FILE}, validates the file and returns it. */
  private JsonNode json(String command, String... args) throws Exception {
    Path file = dir.resolve(command.replace(' ', '-') + ".json");
    List<String> all = new ArrayList<>(List.of(command.split(" ")));
    all.addAll(List.of(args));
    all.addAll(List.of("--json", file.toString()));
    CliRun run = CliRun.of(RekeyCliIT.cluster(all.toArray(String[]::new)));
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    JsonNode result = Json.mapper().readTree(Files.readString(file));
    assertThat(result.get("schemaVersion").asInt()).as(command).isEqualTo(1);
    assertThat(ResultSchemas.violations(command, result)).as(command + ": " + result).isEmpty();
    validated.add(command);
    return result;
  }

  private static String[] concat(String[] a, String... b) {
    List<String> all = new ArrayList<>(List.of(a));
    all.addAll(List.of(b));
    return all.toArray(String[]::new);
  }
}
