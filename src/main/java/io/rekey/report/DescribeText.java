package io.rekey.report;

import io.rekey.common.Finding;
import io.rekey.common.Sizes;
import io.rekey.describe.DescribeResult;
import io.rekey.schema.FamilyDescription;
import io.rekey.schema.RegionDescription;

/** The human-readable form of a {@link DescribeResult}. */
public final class DescribeText {
  private DescribeText() {}

  public static String render(DescribeResult result) {
    StringBuilder out = new StringBuilder();
    var table = result.table();
    out.append("Table ").append(table.table()).append('\n');
    out.append("\nFamilies (").append(table.families().size()).append(")\n");
    for (FamilyDescription f : table.families()) {
      out.append(
          String.format(
              "  %s: VERSIONS=%d MIN_VERSIONS=%d TTL=%s COMPRESSION=%s BLOOMFILTER=%s"
                  + " BLOCKSIZE=%d DATA_BLOCK_ENCODING=%s IN_MEMORY=%s BLOCKCACHE=%s%n",
              f.name(),
              f.maxVersions(),
              f.minVersions(),
              f.hasTtl() ? f.ttlSeconds() + "s" : "FOREVER",
              f.compression(),
              f.bloomFilter(),
              f.blockSize(),
              f.dataBlockEncoding(),
              f.inMemory(),
              f.blockCache()));
    }
    out.append("\nRegions (")
        .append(table.regions().size())
        .append("; sizes as HBase reports them, in whole MiB)\n");
    int i = 0;
    for (RegionDescription r : table.regions()) {
      out.append(
          String.format(
              "  %3d  [%s, %s)  hex [%s, %s)%n       %s on %s: %s in %d store file(s), %s in"
                  + " memstore%n",
              ++i,
              show(r.startKey().printable()),
              show(r.endKey().printable()),
              r.startKey().hex(),
              r.endKey().hex(),
              r.name(),
              r.server(),
              Sizes.human(r.storeFileBytes()),
              r.storeFileCount(),
              Sizes.human(r.memStoreBytes())));
    }
    out.append("\nDesign checks: ");
    if (result.findings().isEmpty()) {
      out.append("none fired\n");
    } else {
      out.append(result.findings().size()).append(" finding(s)\n");
      for (Finding f : result.findings()) {
        out.append(
            String.format(
                "  %-5s %s [%s]%n        evidence: %s%n        change:   %s%n",
                f.severity(), f.subject(), f.code(), f.evidence(), f.advice()));
      }
    }
    return out.toString();
  }

  private static String show(String printable) {
    return printable.isEmpty() ? "''" : "'" + printable + "'";
  }
}
