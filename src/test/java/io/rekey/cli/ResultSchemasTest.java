package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rekey.common.Json;
import io.rekey.keys.KeyText;
import io.rekey.testing.ResultSchemas;
import io.rekey.verify.RegionDiff;
import io.rekey.verify.VerifyResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every command's JSON result has a schema in the jar, and that schema is what the result's types
 * serialize to now. Run with {@code -Drekey.schemas.update=true} to rewrite the files after a
 * deliberate change (then review the diff, and raise the result's schemaVersion when a field
 * changed meaning or went away). {@code JsonResultsIT} validates each command's real output.
 */
class ResultSchemasTest {
  private static final boolean UPDATE = Boolean.getBoolean("rekey.schemas.update");

  static Map<String, Command<?>> commands() {
    PrintStream none = new PrintStream(new ByteArrayOutputStream());
    return new Main(none, none, Map.of()).commands();
  }

  @Test
  void everyCommandShipsTheSchemaItsResultSerializesTo() throws Exception {
    for (Command<?> c : commands().values()) {
      JsonNode derived = ResultSchemas.derive(c.about().name(), c.about().result());
      if (UPDATE) {
        ResultSchemas.writeToSources(c.about().name(), derived);
        continue;
      }
      assertThat(ResultSchemas.shipped(c.about().name()))
          .as(
              "the schema of '%s' (%s) differs from its result type %s: review the change, run"
                  + " mvn test -Dtest=ResultSchemasTest -Drekey.schemas.update=true, and raise"
                  + " schemaVersion if a field changed meaning or went away",
              c.about().name(),
              ResultSchemas.resource(c.about().name()),
              c.about().result().getName())
          .isEqualTo(derived);
    }
  }

  @Test
  void everySchemaDocumentsItsFields() {
    for (Command<?> c : commands().values()) {
      JsonNode schema = ResultSchemas.derive(c.about().name(), c.about().result());
      assertThat(schema.path("description").asText()).as(c.about().name()).isNotBlank();
      assertThat(schema.at("/properties/schemaVersion/type").asText())
          .as(c.about().name())
          .isEqualTo("integer");
    }
  }

  @Test
  void aResultMissingAFieldOrOfTheWrongTypeOrWithAnUnknownFieldFails() {
    VerifyResult result =
        new VerifyResult(
            false,
            10,
            9,
            2,
            List.of(
                new RegionDiff(1, KeyText.of(new byte[] {1}), KeyText.of(new byte[] {2}), 5, 4)),
            1,
            io.rekey.verify.UnmappedRows.NONE,
            0,
            List.of(),
            0,
            List.of(),
            1.5);
    ObjectNode json = Json.mapper().valueToTree(result);
    assertThat(ResultSchemas.violations("verify", json)).isEmpty();

    ObjectNode missing = json.deepCopy();
    missing.remove("targetCells");
    assertThat(ResultSchemas.violations("verify", missing))
        .singleElement()
        .asString()
        .contains("targetCells");
    ObjectNode wrongType = json.deepCopy();
    wrongType.put("matches", "yes");
    assertThat(ResultSchemas.violations("verify", wrongType))
        .singleElement()
        .asString()
        .contains("matches");
    ObjectNode unknown = json.deepCopy();
    unknown.put("surprise", 1);
    assertThat(ResultSchemas.violations("verify", unknown))
        .singleElement()
        .asString()
        .contains("surprise");
    ObjectNode nested = json.deepCopy();
    ((ObjectNode) nested.at("/differences/0")).remove("region");
    assertThat(ResultSchemas.violations("verify", nested)).isNotEmpty();
  }
}
