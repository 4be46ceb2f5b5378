package io.rekey.schema;

import io.rekey.common.Finding;
import io.rekey.common.Severity;
import io.rekey.common.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The HBase schema design rules that can be judged from a table's settings and regions alone, with
 * no data read: few families with short names, compression on, bounded versions, TTL and versions
 * that agree, more than one region, and regions of comparable size. Pure: the same description
 * gives the same findings.
 */
public final class DesignRules {
  /** More families than this is an error: each flush and compaction touches them all. */
  public static final int MAX_FAMILIES = 3;

  /** Family names longer than this are stored in every cell for nothing. */
  public static final int MAX_FAMILY_NAME_BYTES = 3;

  /** Regions whose sizes differ by more than this factor are skewed. */
  public static final double REGION_SIZE_RATIO = 10.0;

  /** Below this, size differences between regions do not matter yet. */
  public static final long REGION_SIZE_FLOOR_BYTES = 1L << 20;

  private DesignRules() {}

  /** Every rule that fires for the table, most severe first. */
  public static List<Finding> check(TableDescription table) {
    List<Finding> findings = new ArrayList<>();
    familyCount(table, findings);
    for (FamilyDescription family : table.families()) {
      familySettings(family, findings);
    }
    regions(table, findings);
    findings.sort(Comparator.comparing(Finding::severity).reversed());
    return List.copyOf(findings);
  }

  private static void familyCount(TableDescription table, List<Finding> findings) {
    int n = table.families().size();
    if (n > MAX_FAMILIES) {
      findings.add(
          new Finding(
              "too-many-families",
              Severity.ERROR,
              table.table(),
              n + " column families",
              "HBase flushes and compacts all families of a region together, so every extra"
                  + " family multiplies small files and I/O; keep to 1, at most "
                  + MAX_FAMILIES
                  + ", and merge families that are read together"));
    } else if (n > 1) {
      findings.add(
          new Finding(
              "several-families",
              Severity.INFO,
              table.table(),
              n + " column families",
              "more than one family pays off only when they are read apart and differ in size or"
                  + " settings (e.g. small hot metadata vs large cold content); otherwise use one"));
    }
  }

  private static void familySettings(FamilyDescription f, List<Finding> findings) {
    String subject = "family " + f.name();
    int nameBytes = f.name().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (nameBytes > MAX_FAMILY_NAME_BYTES) {
      findings.add(
          new Finding(
              "long-family-name",
              Severity.WARN,
              subject,
              "name is " + nameBytes + " bytes, stored again in every cell",
              "use a one- or two-letter family name (e.g. 'd' or 'm') in the redesigned table"));
    }
    if (f.compression().equalsIgnoreCase("NONE")) {
      findings.add(
          new Finding(
              "no-compression",
              Severity.WARN,
              subject,
              "COMPRESSION => 'NONE'",
              "enable SNAPPY, LZ4 or ZSTD: repeated keys and qualifiers compress well and reads"
                  + " get cheaper"));
    }
    if (f.maxVersions() == Integer.MAX_VALUE) {
      findings.add(
          new Finding(
              "unbounded-versions",
              Severity.WARN,
              subject,
              "VERSIONS => " + f.maxVersions() + " (unbounded)",
              "set VERSIONS to what readers need (often 1) or add a TTL, or old versions grow"
                  + " without limit"));
    }
    if (f.minVersions() > f.maxVersions()) {
      findings.add(
          new Finding(
              "min-versions-above-versions",
              Severity.ERROR,
              subject,
              "MIN_VERSIONS => " + f.minVersions() + " > VERSIONS => " + f.maxVersions(),
              "set MIN_VERSIONS at most VERSIONS"));
    }
    if (f.minVersions() > 0 && !f.hasTtl()) {
      findings.add(
          new Finding(
              "min-versions-without-ttl",
              Severity.INFO,
              subject,
              "MIN_VERSIONS => " + f.minVersions() + " with TTL => FOREVER",
              "MIN_VERSIONS only matters with a TTL; drop it or set the TTL you meant"));
    } else if (f.minVersions() > 0) {
      findings.add(
          new Finding(
              "min-versions-outlive-ttl",
              Severity.INFO,
              subject,
              "MIN_VERSIONS => " + f.minVersions() + " with TTL => " + f.ttlSeconds() + " s",
              "the newest "
                  + f.minVersions()
                  + " version(s) of each cell are kept past the TTL; set MIN_VERSIONS => 0 if"
                  + " expired data must go"));
    }
  }

  private static void regions(TableDescription table, List<Finding> findings) {
    List<RegionDescription> regions = table.regions();
    if (regions.size() == 1) {
      RegionDescription only = regions.get(0);
      findings.add(
          new Finding(
              "single-region",
              Severity.WARN,
              table.table(),
              "1 region holding " + bytes(only.totalBytes()) + " on " + only.server(),
              "every read and write goes to one region server; pre-split the table from the"
                  + " key layout's split points (rekey creates the target that way)"));
      return;
    }
    if (regions.isEmpty()) {
      return;
    }
    RegionDescription smallest =
        regions.stream().min(Comparator.comparingLong(RegionDescription::totalBytes)).orElseThrow();
    RegionDescription largest =
        regions.stream().max(Comparator.comparingLong(RegionDescription::totalBytes)).orElseThrow();
    long max = largest.totalBytes();
    long min = smallest.totalBytes();
    if (max >= REGION_SIZE_FLOOR_BYTES && max > REGION_SIZE_RATIO * min) {
      String ratio = min == 0 ? "an empty region" : String.format("%.1f×", (double) max / min);
      findings.add(
          new Finding(
              "region-size-skew",
              Severity.WARN,
              table.table(),
              "largest region "
                  + largest.name()
                  + " holds "
                  + bytes(max)
                  + ", smallest "
                  + smallest.name()
                  + " holds "
                  + bytes(min)
                  + " ("
                  + ratio
                  + ")",
              "the key design concentrates data; run 'audit' to see where writes land and"
                  + " consider a salted or hashed key prefix"));
    }
  }

  private static String bytes(long n) {
    return n < 1024 ? n + " bytes" : n + " bytes (" + Sizes.human(n) + ")";
  }
}
