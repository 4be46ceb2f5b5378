package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.common.Finding;
import io.rekey.keys.KeyLayout;
import io.rekey.keys.KeyText;
import io.rekey.schema.FamilyDescription;
import io.rekey.schema.RegionDescription;
import io.rekey.schema.TableDescription;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditAnalysisTest {
  private static final String SOURCE = "text: ts:long + '_' + user";

  static AuditResult analyze(TableProfile p, String sourceKey, int regions) {
    List<RegionDescription> regionList =
        java.util.stream.IntStream.range(0, regions)
            .mapToObj(
                i ->
                    new RegionDescription(
                        "r" + i, KeyText.of(new byte[0]), KeyText.of(new byte[0]), "rs", 0, 0, 0))
            .toList();
    TableDescription description =
        new TableDescription(
            "t:t",
            List.of(
                new FamilyDescription(
                    "m",
                    1,
                    0,
                    FamilyDescription.FOREVER,
                    "SNAPPY",
                    "ROW",
                    65536,
                    "NONE",
                    false,
                    true)),
            regionList);
    return AuditAnalysis.analyze(
        p,
        new AuditAnalysis.Context(
            "t:t",
            "snapshot",
            new AuditResult.Sampling("all", 1, 0, 0, 0, 1, 0),
            sourceKey,
            description,
            LayoutSimulator.defaults(sourceKey == null ? null : KeyLayout.parse(sourceKey)),
            16,
            Synthetic.T0 + 100_000_000L,
            1.0));
  }

  @Test
  void aTimeFirstKeyInOneRegionIsMonotonicWithAHotLastKeyRange() {
    AuditResult r = analyze(Synthetic.timeFirst(20_000, SOURCE), SOURCE, 1);
    assertThat(codes(r)).contains("monotonic-key", "recent-write-hotspot", "single-region");
    assertThat(r.heatmap().keyAxis()).isEqualTo("key-ranges");
    assertThat(r.skew().keyRangeRecentMaxOverMean()).isGreaterThan(AuditRules.HOT_RATIO);
    Finding hot = find(r, "recent-write-hotspot");
    assertThat(hot.subject()).startsWith("key range 16/16");
    assertThat(hot.advice()).contains("salt(16");
    assertThat(r.totals().rows()).isEqualTo(20_000);
    assertThat(r.totals().cells()).isEqualTo(60_000);
    // The newest tenth of the writes: the cutoff sits at the 90th percentile of time.
    assertThat(r.skew().recentCutoffTs())
        .isBetween(Synthetic.T0 + 17_600_000L, Synthetic.T0 + 18_400_000L);
  }

  @Test
  void aSaltedKeyOverSixteenRegionsRaisesNoKeyFindings() {
    AuditResult r = analyze(Synthetic.salted(20_000), null, 16);
    assertThat(codes(r)).doesNotContain("monotonic-key", "recent-write-hotspot", "stored-skew");
    assertThat(r.heatmap().keyAxis()).isEqualTo("regions");
    assertThat(r.heatmap().cells()).hasNumberOfRows(16);
    assertThat(r.skew().recentMaxOverMean()).isLessThan(1.5);
    assertThat(r.skew().cellsGini()).isLessThan(0.1);
    long heatmapTotal = 0;
    for (long[] row : r.heatmap().cells()) {
      for (long c : row) {
        heatmapTotal += c;
      }
    }
    assertThat(heatmapTotal).isBetween(59_000L, 61_000L);
  }

  @Test
  void anEmptyTableGivesOneInfoFinding() {
    TableProfile empty = new TableProfile(Synthetic.settings(List.of(new byte[0]), null)).finish();
    AuditResult r = analyze(empty, null, 2);
    assertThat(codes(r)).containsExactly("empty-table");
  }

  @Test
  void failOnFollowsTheWorstFinding() {
    AuditResult r = analyze(Synthetic.timeFirst(5_000, SOURCE), SOURCE, 1);
    assertThat(AuditJob.fails(r, AuditOptions.FailOn.ERROR)).isTrue();
    assertThat(AuditJob.fails(r, AuditOptions.FailOn.NEVER)).isFalse();
    AuditResult even = analyze(Synthetic.salted(5_000), null, 16);
    assertThat(AuditJob.fails(even, AuditOptions.FailOn.WARN)).isFalse();
  }

  private static List<String> codes(AuditResult r) {
    return r.findings().stream().map(Finding::code).toList();
  }

  private static Finding find(AuditResult r, String code) {
    return r.findings().stream().filter(f -> f.code().equals(code)).findFirst().orElseThrow();
  }
}
