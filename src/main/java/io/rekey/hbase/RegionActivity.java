package io.rekey.hbase;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One region of a table as its region server reports it at one moment: where it is, its key range,
 * and how many write requests it has served since it opened. The count is the region's own ({@code
 * Admin.getRegionMetrics(server, table)} asks each server, not the master's periodic copy) and
 * grows with every Put, Delete, Increment, Append and batch, whatever timestamps they carry, and
 * with every bulk load into the region (HBase's {@code HRegion.bulkLoadHFiles} counts one): two
 * readings with the same regions on the same servers and the same counts prove nothing was written
 * between them. Flushes and compactions do not count, so the reading ignores them.
 *
 * @param region the region's encoded name
 * @param server the server holding it ({@code host,port,startcode}: a restart changes it)
 * @param startKey its start key, printable
 * @param endKey its end key, printable
 * @param writeRequests write requests it has served since it opened
 */
public record RegionActivity(
    String region, String server, String startKey, String endKey, long writeRequests) {

  /** Every region of {@code table}, in key order, as their servers report them now. */
  public static List<RegionActivity> of(Connection connection, TableName table) {
    try (Admin admin = connection.getAdmin()) {
      Map<String, ServerName> where = new HashMap<>();
      List<RegionInfo> regions = new ArrayList<>();
      for (var location : connection.getRegionLocator(table).getAllRegionLocations()) {
        regions.add(location.getRegion());
        where.put(location.getRegion().getEncodedName(), location.getServerName());
      }
      Map<String, Long> writes = new HashMap<>();
      for (ServerName server : new java.util.HashSet<>(where.values())) {
        for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
          writes.put(RegionInfo.encodeRegionName(m.getRegionName()), m.getWriteRequestCount());
        }
      }
      List<RegionActivity> out = new ArrayList<>(regions.size());
      for (RegionInfo r : regions) {
        String name = r.getEncodedName();
        ServerName server = where.get(name);
        out.add(
            new RegionActivity(
                name,
                server == null ? "(unassigned)" : server.getServerName(),
                Bytes.toStringBinary(r.getStartKey()),
                Bytes.toStringBinary(r.getEndKey()),
                writes.getOrDefault(name, -1L)));
      }
      return out;
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the write counts of " + table + "'s regions: " + e.getMessage(), e);
    }
  }
}
