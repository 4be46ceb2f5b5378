package io.rekey.schema;

import io.rekey.common.RekeyException;
import io.rekey.keys.KeyText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/** Reads a table's settings and regions from the cluster into a {@link TableDescription}. */
public final class TableInspector {
  private final Connection connection;

  public TableInspector(Connection connection) {
    this.connection = connection;
  }

  /**
   * Parses {@code NS:TABLE} (or {@code TABLE} in the default namespace).
   *
   * @throws io.rekey.options.InvalidOptionException naming the option when the name is not legal
   */
  public static TableName tableName(String option, String value) {
    try {
      return TableName.valueOf(value);
    } catch (IllegalArgumentException e) {
      throw io.rekey.options.InvalidOptionException.of(
          option,
          value,
          "is not a legal HBase table name ("
              + e.getMessage()
              + "); write NAMESPACE:TABLE with letters, digits, '_', '-' and '.'");
    }
  }

  /** Describes {@code table}; a missing table is a {@link RekeyException} saying so. */
  public TableDescription describe(TableName table) {
    try (Admin admin = connection.getAdmin();
        RegionLocator locator = connection.getRegionLocator(table)) {
      if (!admin.tableExists(table)) {
        throw new RekeyException(
            "table "
                + table.getNameAsString()
                + " does not exist on this cluster; check the name (NAMESPACE:TABLE) or create it"
                + " first (existing tables: "
                + existingTables(admin)
                + ")");
      }
      TableDescriptor descriptor = admin.getDescriptor(table);
      List<FamilyDescription> families = new ArrayList<>();
      for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
        families.add(
            new FamilyDescription(
                f.getNameAsString(),
                f.getMaxVersions(),
                f.getMinVersions(),
                f.getTimeToLive(),
                f.getCompressionType().name(),
                f.getBloomFilterType().name(),
                f.getBlocksize(),
                f.getDataBlockEncoding().name(),
                f.isInMemory(),
                f.isBlockCacheEnabled()));
      }
      Map<String, RegionMetrics> metrics = regionMetrics(admin, table);
      List<RegionDescription> regions = new ArrayList<>();
      for (HRegionLocation location : locator.getAllRegionLocations()) {
        var info = location.getRegion();
        RegionMetrics m = metrics.get(Bytes.toStringBinary(info.getRegionName()));
        regions.add(
            new RegionDescription(
                info.getEncodedName(),
                KeyText.of(info.getStartKey()),
                KeyText.of(info.getEndKey()),
                location.getServerName() == null
                    ? "(unassigned)"
                    : location.getServerName().toString(),
                m == null ? 0 : (long) m.getStoreFileSize().get(Size.Unit.BYTE),
                m == null ? 0 : m.getStoreFileCount(),
                m == null ? 0 : (long) m.getMemStoreSize().get(Size.Unit.BYTE)));
      }
      return new TableDescription(table.getNameAsString(), families, regions);
    } catch (TableNotFoundException e) {
      throw new RekeyException(
          "table " + table.getNameAsString() + " does not exist on this cluster", e);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot describe table " + table.getNameAsString() + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, RegionMetrics> regionMetrics(Admin admin, TableName table)
      throws IOException {
    Map<String, RegionMetrics> byName = new HashMap<>();
    ClusterMetrics cluster =
        admin.getClusterMetrics(java.util.EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
    for (ServerName server : cluster.getLiveServerMetrics().keySet()) {
      for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
        byName.put(Bytes.toStringBinary(m.getRegionName()), m);
      }
    }
    return byName;
  }

  private static String existingTables(Admin admin) throws IOException {
    List<String> names = new ArrayList<>();
    for (TableName t : admin.listTableNames()) {
      names.add(t.getNameAsString());
    }
    if (names.isEmpty()) {
      return "none";
    }
    String[] sorted = names.toArray(new String[0]);
    Arrays.sort(sorted);
    return names.size() > 20
        ? String.join(", ", Arrays.copyOf(sorted, 20)) + ", ..."
        : String.join(", ", sorted);
  }
}
