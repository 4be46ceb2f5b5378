package io.rekey.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rekey.audit.AuditResultsForTests;
import io.rekey.options.Location;
import io.rekey.testing.Scripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report in a real headless browser, through the same script users run
 * (jobs/check-report.sh): it renders from disk with no network, draws every chart, puts the
 * findings first, and a broken report is refused. The script installs Debian's chromium when it can
 * (CI runs as root); where no browser can be had the test says so and is skipped.
 */
class ReportInBrowserIT {
  @TempDir Path dir;

  @Test
  void theReportRendersInChromiumAndABrokenOneIsRefused() throws Exception {
    AuditReport.write(
        AuditResultsForTests.timeFirst(), new Location(dir.toString()), new Configuration(false));
    Path html = dir.resolve(AuditReport.HTML);
    Scripts.Finished good =
        Scripts.run(Map.of(), 600, List.of("jobs/check-report.sh", "--install", html.toString()));
    assumeTrue(
        good.exit() != 3, "no headless browser here (apt-get install chromium): " + good.output());
    assertThat(good.exit()).as(good.output()).isZero();
    assertThat(good.output()).contains("charts, findings first");
    assertThat(dir.resolve("audit.png")).isNotEmptyFile();

    Path broken = dir.resolve("broken.html");
    Files.writeString(
        broken, Files.readString(html).replace("<svg", "<div").replace("</svg>", "</div>"));
    Scripts.Finished refused =
        Scripts.run(Map.of(), 120, List.of("jobs/check-report.sh", broken.toString()));
    assertThat(refused.exit()).as(refused.output()).isEqualTo(1);
    assertThat(refused.output()).contains("only 0 charts were drawn");
  }
}
