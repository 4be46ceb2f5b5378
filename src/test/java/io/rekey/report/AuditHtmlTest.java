package io.rekey.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.audit.AuditResult;
import io.rekey.audit.AuditResultsForTests;
import io.rekey.common.Json;
import io.rekey.options.Location;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class AuditHtmlTest {
  @Test
  void theReportIsWellFormedSelfContainedAndHasEveryChart(@TempDir Path dir) throws Exception {
    AuditResult result = AuditResultsForTests.timeFirst();
    AuditReport.write(result, new Location(dir.toString()), new Configuration(false));
    String html = Files.readString(dir.resolve(AuditReport.HTML));

    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document doc =
        factory
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    int charts = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength();
    // heatmap, regions, key ranges, what-if, first byte, two bytes, first field, 4 histograms,
    // 2 qualifier charts
    assertThat(charts).isGreaterThanOrEqualTo(13);
    assertThat(html).doesNotContain("<script", "src=", "<link");
    assertThat(html.replace("http://www.w3.org/", "")).doesNotContain("http");
    assertThat(html.indexOf("id=\"findings\"")).isLessThan(html.indexOf("id=\"heatmap\""));
    assertThat(html).contains("monotonic-key", "recent-write-hotspot", "salt(16) + key");
  }

  @Test
  void theJsonCarriesItsSchemaVersionAndTheDocumentedSections(@TempDir Path dir) throws Exception {
    AuditReport.write(
        AuditResultsForTests.timeFirst(), new Location(dir.toString()), new Configuration(false));
    JsonNode json = Json.mapper().readTree(dir.resolve(AuditReport.JSON).toFile());
    assertThat(json.get("schemaVersion").asInt()).isEqualTo(AuditResult.SCHEMA_VERSION);
    for (String field :
        new String[] {
          "table",
          "readFrom",
          "sampling",
          "totals",
          "families",
          "distributions",
          "extremes",
          "skew",
          "prefixes",
          "heatmap",
          "monotonic",
          "whatIf",
          "findings"
        }) {
      assertThat(json.has(field)).as(field).isTrue();
    }
    assertThat(json.at("/monotonic/monotonic").asBoolean()).isTrue();
    assertThat(json.at("/heatmap/cells").size()).isEqualTo(16);
    assertThat(json.at("/whatIf/recommended").asText()).isNotEmpty();
  }

  @Test
  void textIsEscaped() {
    assertThat(Html.escape("<a & 'b'>\u0001")).isEqualTo("&lt;a &amp; &#39;b&#39;&gt;?");
  }
}
