package io.rekey.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.common.Finding;
import io.rekey.common.Severity;
import io.rekey.keys.KeyText;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DesignRulesTest {
  static FamilyDescription family(
      String name, int versions, int minVersions, int ttl, String compression) {
    return new FamilyDescription(
        name, versions, minVersions, ttl, compression, "ROW", 65536, "NONE", false, true);
  }

  static FamilyDescription good(String name) {
    return family(name, 1, 0, FamilyDescription.FOREVER, "SNAPPY");
  }

  static RegionDescription region(String name, long bytes) {
    KeyText k = KeyText.of(new byte[0]);
    return new RegionDescription(name, k, k, "rs1", bytes, 1, 0);
  }

  static List<String> codes(TableDescription t) {
    List<String> codes = new ArrayList<>();
    for (Finding f : DesignRules.check(t)) {
      codes.add(f.code());
    }
    return codes;
  }

  static List<RegionDescription> evenRegions() {
    return List.of(region("r1", 5_000_000), region("r2", 6_000_000));
  }

  @Test
  void aWellDesignedTableRaisesNothing() {
    assertThat(codes(new TableDescription("ns:t", List.of(good("d")), evenRegions()))).isEmpty();
  }

  @Test
  void moreThanThreeFamiliesIsAnError() {
    var t =
        new TableDescription(
            "ns:t", List.of(good("a"), good("b"), good("c"), good("d")), evenRegions());
    List<Finding> findings = DesignRules.check(t);
    assertThat(findings.get(0).code()).isEqualTo("too-many-families");
    assertThat(findings.get(0).severity()).isEqualTo(Severity.ERROR);
    assertThat(findings.get(0).evidence()).isEqualTo("4 column families");
  }

  @Test
  void twoFamiliesIsANote() {
    var t = new TableDescription("ns:t", List.of(good("a"), good("b")), evenRegions());
    assertThat(codes(t)).containsExactly("several-families");
  }

  @Test
  void longFamilyNamesNoCompressionAndUnboundedVersions() {
    var t =
        new TableDescription(
            "ns:t",
            List.of(family("messages", Integer.MAX_VALUE, 0, FamilyDescription.FOREVER, "NONE")),
            evenRegions());
    assertThat(codes(t))
        .containsExactlyInAnyOrder("long-family-name", "no-compression", "unbounded-versions");
    Finding name =
        DesignRules.check(t).stream()
            .filter(f -> f.code().equals("long-family-name"))
            .findFirst()
            .orElseThrow();
    assertThat(name.subject()).isEqualTo("family messages");
    assertThat(name.evidence()).isEqualTo("name is 8 bytes, stored again in every cell");
  }

  @Test
  void ttlAgainstMinVersions() {
    var noTtl =
        new TableDescription(
            "ns:t", List.of(family("d", 3, 1, FamilyDescription.FOREVER, "LZ4")), evenRegions());
    assertThat(codes(noTtl)).containsExactly("min-versions-without-ttl");
    var withTtl =
        new TableDescription("ns:t", List.of(family("d", 3, 2, 86400, "LZ4")), evenRegions());
    assertThat(codes(withTtl)).containsExactly("min-versions-outlive-ttl");
    var inverted =
        new TableDescription("ns:t", List.of(family("d", 1, 2, 86400, "LZ4")), evenRegions());
    assertThat(codes(inverted)).contains("min-versions-above-versions");
  }

  @Test
  void aSingleRegionIsFlagged() {
    var t = new TableDescription("ns:t", List.of(good("d")), List.of(region("r1", 10)));
    assertThat(codes(t)).containsExactly("single-region");
  }

  @Test
  void regionsMoreThanTenTimesApartAreFlagged() {
    var skewed =
        new TableDescription(
            "ns:t",
            List.of(good("d")),
            List.of(region("small", 1_000_000), region("big", 10_000_001)));
    List<Finding> findings = DesignRules.check(skewed);
    assertThat(findings).extracting(Finding::code).containsExactly("region-size-skew");
    assertThat(findings.get(0).evidence())
        .isEqualTo(
            "largest region big holds 10000001 bytes (9.5 MiB), smallest small holds 1000000 bytes"
                + " (976.6 KiB) (10.0×)");
    var tenTimes =
        new TableDescription(
            "ns:t",
            List.of(good("d")),
            List.of(region("small", 1_000_000), region("big", 10_000_000)));
    assertThat(codes(tenTimes)).isEmpty();
  }

  @Test
  void smallTablesAreNotJudgedOnRegionSizes() {
    var tiny =
        new TableDescription(
            "ns:t", List.of(good("d")), List.of(region("a", 0), region("b", 500_000)));
    assertThat(codes(tiny)).isEmpty();
  }

  @Test
  void findingsComeMostSevereFirst() {
    var t =
        new TableDescription(
            "ns:t",
            List.of(
                family("aaaa", 1, 0, FamilyDescription.FOREVER, "NONE"),
                good("b"),
                good("c"),
                good("d")),
            List.of(region("r", 1)));
    List<Finding> findings = DesignRules.check(t);
    assertThat(findings.get(0).severity()).isEqualTo(Severity.ERROR);
    assertThat(findings.get(findings.size() - 1).severity()).isEqualTo(Severity.WARN);
  }
}
