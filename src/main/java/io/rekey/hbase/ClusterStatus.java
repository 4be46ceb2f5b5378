package io.rekey.hbase;

import io.rekey.common.JsonResult;
import java.util.List;

/**
 * Whether an HBase cluster serves requests, and what it is made of.
 *
 * @param zookeeper where it was looked for
 * @param master the active master, {@code host,port,startcode}
 * @param regionServers the live region servers
 * @param tables how many user tables exist
 * @param hbaseVersion the cluster's HBase version
 */
public record ClusterStatus(
    String zookeeper, String master, List<String> regionServers, int tables, String hbaseVersion)
    implements JsonResult {
  public ClusterStatus {
    regionServers = List.copyOf(regionServers);
  }
}
