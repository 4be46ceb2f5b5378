package io.rekey.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.run.RunRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A history line is one flat JSON object: the shared head's fields beside the job's counts. */
class IndexRunRecordTest {
  @Test
  void aFailedRunIsOneFlatLineWithTheWatermarkUnmoved() throws Exception {
    RunRecord.Start start = new RunRecord.Start("update", 1_000L, "app-1", 40L, 90L, 40L);
    String line = Json.toJsonLine(IndexRunRecord.failed(start, "bulk load failed"));

    JsonNode json = Json.mapper().readTree(line);
    List<String> names = new ArrayList<>();
    json.fieldNames().forEachRemaining(names::add);
    assertThat(names)
        .containsExactly(
            "run",
            "outcome",
            "started",
            "seconds",
            "application",
            "windowFrom",
            "windowTo",
            "watermarkBefore",
            "watermarkAfter",
            "rowsRead",
            "entriesWritten",
            "entriesDeleted",
            "rowsRejected",
            "message");
    assertThat(json.get("outcome").asText()).isEqualTo("failed");
    assertThat(json.get("started").asText()).isEqualTo("1970-01-01T00:00:01Z");
    assertThat(json.get("windowFrom").asLong()).isEqualTo(40);
    assertThat(json.get("windowTo").asLong()).isEqualTo(90);
    assertThat(json.get("watermarkAfter").asLong()).isEqualTo(40);
    assertThat(json.get("message").asText()).isEqualTo("bulk load failed");
    assertThat(line).doesNotContain("\n");
  }
}
