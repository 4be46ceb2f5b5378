package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.KeyLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutSimulatorTest {
  private static final String SOURCE = "text: ts:long + '_' + user";

  @Test
  void aTimeFirstKeySendsRecentWritesToOneRegionAndASaltSpreadsThem() {
    TableProfile p = Synthetic.timeFirst(20_000, SOURCE);
    long cutoff = Synthetic.T0 + 18_000 * 1000L;
    List<Samples.Row> rows = p.rowSample.items();
    List<Samples.Cell> cells = p.cellSample.items();
    AuditResult.LayoutOutcome keep =
        LayoutSimulator.simulate(
            SOURCE, new LayoutSimulator.Candidate("keep", "key"), 16, rows, cells, cutoff);
    AuditResult.LayoutOutcome salted =
        LayoutSimulator.simulate(
            SOURCE,
            new LayoutSimulator.Candidate("salt", "salt(16) + key"),
            16,
            rows,
            cells,
            cutoff);
    assertThat(keep.regions()).isEqualTo(16);
    assertThat(keep.rowsMaxOverMean()).isLessThan(1.2);
    assertThat(keep.recentMaxOverMean()).isGreaterThan(6);
    assertThat(salted.regions()).isEqualTo(16);
    assertThat(salted.recentMaxOverMean()).isLessThan(1.5);
    assertThat(salted.splitPoints()).hasSize(15);
    assertThat(salted.avgKeyBytes()).isEqualTo(keep.avgKeyBytes() + 1);
  }

  @Test
  void theRecommendationIsTheMostEvenWithTheFewestRegions() {
    TableProfile p = Synthetic.timeFirst(20_000, SOURCE);
    long cutoff = Synthetic.T0 + 18_000 * 1000L;
    List<AuditResult.LayoutOutcome> outcomes =
        LayoutSimulator.defaults(KeyLayout.parse(SOURCE)).stream()
            .map(
                c ->
                    LayoutSimulator.simulate(
                        SOURCE, c, 16, p.rowSample.items(), p.cellSample.items(), cutoff))
            .toList();
    assertThat(outcomes)
        .extracting(AuditResult.LayoutOutcome::spec)
        .contains("key", "salt(8) + key", "salt(64) + key", "salt(16, ts) + key");
    LayoutSimulator.Recommendation r = LayoutSimulator.recommend(outcomes);
    AuditResult.LayoutOutcome chosen =
        outcomes.stream().filter(o -> o.name().equals(r.name())).findFirst().orElseThrow();
    assertThat(chosen.regions()).isEqualTo(16);
    assertThat(chosen.spec()).isIn("salt(16) + key", "salt(16, ts) + key");
  }

  @Test
  void anEvenKeyIsKeptAsItIs() {
    TableProfile p = Synthetic.salted(20_000);
    long cutoff = Synthetic.T0 + 18_000 * 1000L;
    // Simulated at the table's own 16 regions, the current key is split where the table is.
    LayoutSimulator.Decoded sample =
        LayoutSimulator.decode(
            "key",
            p.settings().regionStarts().subList(1, 16),
            p.rowSample.items(),
            p.cellSample.items(),
            cutoff);
    List<AuditResult.LayoutOutcome> outcomes =
        LayoutSimulator.defaults(null).stream()
            .map(c -> LayoutSimulator.simulate(c, 16, sample))
            .toList();
    assertThat(LayoutSimulator.recommend(outcomes).name())
        .as("%s", outcomes)
        .isEqualTo(LayoutSimulator.KEEP_KEY_NAME);
  }

  @Test
  void aLayoutThatCannotBeBuiltIsReportedNotThrown() {
    AuditResult.LayoutOutcome o =
        LayoutSimulator.simulate(
            "key",
            new LayoutSimulator.Candidate("bad", "salt(16, user) + key"),
            16,
            List.of(),
            List.of(),
            0);
    assertThat(o.problem()).contains("cannot be built");
  }

  @Test
  void maxOverMeanIsOneWhenEvenAndNWhenOneTakesAll() {
    assertThat(LayoutSimulator.maxOverMean(new double[] {5, 5, 5, 5})).isEqualTo(1.0);
    assertThat(LayoutSimulator.maxOverMean(new double[] {0, 0, 0, 8})).isEqualTo(4.0);
  }
}
