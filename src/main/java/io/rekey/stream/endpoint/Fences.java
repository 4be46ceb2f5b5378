package io.rekey.stream.endpoint;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The fences that prove a stream drained: a table of the source's cluster with a region on every
 * region server, into which a switch writes one cell per region after the writers stopped. A fence
 * lands in its server's write-ahead log after every edit that server logged before it, and the
 * server's queue of the stream ships the log in order, so when the endpoint acknowledges a fence
 * (after writing everything shipped before it) that server's edits up to the stop are in the
 * target.
 *
 * <p>Fence rows are the region's two-byte index, the peer id, a zero byte and the fence's id; the
 * acknowledgements live in the table of the same name on the target's cluster (the endpoint's
 * client reaches only that one), in rows that start with {@code 0xFF}, beside the stream's refused
 * rows ({@code 0xFE}), its cells read differently ({@code 0xFD}, {@link HiddenCells}) and its
 * queues' write rates ({@code 0xFC}, {@link WriteRate}) and the bulk loads it carried ({@code
 * 0xFB}, {@link BulkLoadedFiles}); no fence row has their length, so one table serves both when
 * source and target share a cluster. Several streams share the table: an endpoint acknowledges its
 * own peer's fences only.
 */
public final class Fences {
  /** The fence table's family. */
  static final byte[] FAMILY = Bytes.toBytes("f");

  private static final byte[] FENCE = Bytes.toBytes("fence");
  private static final byte ACK = (byte) 0xFF;
  private static final byte REFUSED = (byte) 0xFE;
  private static final int MAX_REGIONS = 0xFF00;

  private Fences() {}

  /**
   * A fence as its row says.
   *
   * @param region the index of the fence table's region it was written into
   * @param fenceId the switch's id of the round
   */
  public record Fence(int region, long fenceId) {}

  /** The fence in {@code row} if it is one of {@code peerId}'s, else null. */
  static Fence parse(byte[] row, String peerId) {
    byte[] peer = Bytes.toBytes(peerId);
    if (row.length != 2 + peer.length + 1 + Long.BYTES || (row[0] & 0xFF) == (ACK & 0xFF)) {
      return null;
    }
    if (!Bytes.equals(row, 2, peer.length, peer, 0, peer.length) || row[2 + peer.length] != 0) {
      return null;
    }
    int region = ((row[0] & 0xFF) << 8) | (row[1] & 0xFF);
    return new Fence(region, Bytes.toLong(row, 3 + peer.length));
  }

  static byte[] fenceRow(int region, String peerId, long fenceId) {
    return Bytes.add(
        new byte[] {(byte) (region >>> 8), (byte) region},
        Bytes.add(Bytes.toBytes(peerId), new byte[] {0}, Bytes.toBytes(fenceId)));
  }

  static byte[] ackRow(String peerId, long fenceId) {
    return Bytes.add(
        new byte[] {ACK}, Bytes.add(Bytes.toBytes(peerId), new byte[] {0}, Bytes.toBytes(fenceId)));
  }

  /**
   * What an acknowledgement says instead of a count when its server writes several WALs ({@code
   * hbase.wal.provider=multiwal}): the fence is in one of them, so it proves only that one.
   */
  public static final long SEVERAL_WALS = -1;

  /**
   * The acknowledgement the endpoint writes once every edit shipped before the fence is in the
   * target.
   *
   * @param sourceEditsAfter source edits that followed the fence in the same shipped batch: a
   *     writer that had not stopped
   */
  static Put ack(String peerId, Fence fence, long sourceEditsAfter) {
    return new Put(ackRow(peerId, fence.fenceId()))
        .addColumn(FAMILY, Bytes.toBytes(fence.region()), Bytes.toBytes(sourceEditsAfter));
  }

  /**
   * The record of source rows the stream's layout cannot place, on the target's cluster: one cell
   * per source row (the qualifier) with the reason, so a batch shipped twice records a row once.
   *
   * @param lines the mapper's lines, {@code ROW<tab>REASON} with the row printable
   */
  static List<Put> refused(String peerId, List<String> lines) {
    List<Put> out = new ArrayList<>();
    for (String line : lines) {
      int tab = line.indexOf('\t');
      byte[] row = Bytes.toBytesBinary(tab < 0 ? line : line.substring(0, tab));
      out.add(
          new Put(refusedRow(peerId))
              .addColumn(FAMILY, row, Bytes.toBytes(tab < 0 ? "" : line.substring(tab + 1))));
    }
    return out;
  }

  /**
   * Takes back the refusals of source rows the stream places again (a bound column given a value
   * the layout accepts) or that are gone: the record counts the rows the target lacks now.
   */
  static Delete unrefused(String peerId, List<byte[]> sourceRows) {
    Delete d = new Delete(refusedRow(peerId));
    for (byte[] row : sourceRows) {
      d.addColumns(FAMILY, row);
    }
    return d;
  }

  private static byte[] refusedRow(String peerId) {
    return Bytes.add(new byte[] {REFUSED}, Bytes.toBytes(peerId));
  }

  /**
   * The source rows the stream refused, read from the target's cluster.
   *
   * @param count how many distinct source rows
   * @param examples the first few, {@code ROW: REASON}
   */
  public record Refused(long count, List<String> examples) {}

  /** What the stream of {@code peerId} refused so far. */
  public static Refused refused(Connection target, TableName table, String peerId)
      throws IOException {
    List<String> examples = new ArrayList<>();
    long count = 0;
    try (Table t = target.getTable(table)) {
      Result r = t.get(new Get(refusedRow(peerId)).addFamily(FAMILY));
      for (Cell c : r.rawCells()) {
        if (count++ < 5) {
          examples.add(
              Bytes.toStringBinary(CellUtil.cloneQualifier(c))
                  + ": "
                  + Bytes.toString(CellUtil.cloneValue(c)));
        }
      }
    }
    return new Refused(count, examples);
  }

  /** The fence table's split keys for {@code regions} regions. */
  static byte[][] splits(int regions) {
    byte[][] out = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      out[i - 1] = new byte[] {(byte) (i >>> 8), (byte) i};
    }
    return out;
  }

  /** Creates the fence table where it is missing (on the source's and on the target's cluster). */
  public static void ensureTable(Admin admin, TableName table, int regions) throws IOException {
    if (admin.tableExists(table)) {
      return;
    }
    int n = Math.max(1, Math.min(regions, MAX_REGIONS));
    TableDescriptorBuilder d =
        TableDescriptorBuilder.newBuilder(table)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build());
    try {
      if (n == 1) {
        admin.createTable(d.build());
      } else {
        admin.createTable(d.build(), splits(n));
      }
    } catch (TableExistsException e) {
      // Another stream started at the same moment created it; it serves both once it is online.
      long until = System.currentTimeMillis() + 60_000;
      while (!admin.isTableAvailable(table) && System.currentTimeMillis() < until) {
        sleep(100);
      }
    }
  }

  private static void sleep(long millis) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while the fence table came online");
    }
  }

  /**
   * Where the fence table's regions are: region index to its location (server and open sequence
   * number, which changes whenever the region reopens anywhere).
   */
  public static Map<Integer, HRegionLocation> placement(Connection connection, TableName table)
      throws IOException {
    Map<Integer, HRegionLocation> out = new LinkedHashMap<>();
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      locator.clearRegionLocationCache();
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        byte[] start = l.getRegion().getStartKey();
        out.put(start.length == 0 ? 0 : ((start[0] & 0xFF) << 8) | (start[1] & 0xFF), l);
      }
    }
    return out;
  }

  /**
   * Puts a fence region on every server in {@code servers}: recreates the table with one region a
   * server when it has fewer, then moves regions from servers that hold several to those with none.
   *
   * @return the placement after the moves
   */
  public static Map<Integer, HRegionLocation> place(
      Connection connection, TableName table, List<ServerName> servers) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (servers.size() > MAX_REGIONS) {
        throw new RekeyException(
            servers.size() + " region servers: a switch fences at most " + MAX_REGIONS);
      }
      ensureTable(admin, table, servers.size());
      Map<Integer, HRegionLocation> now = placement(connection, table);
      if (now.size() < servers.size()) {
        admin.disableTable(table);
        admin.deleteTable(table);
        ensureTable(admin, table, servers.size());
        now = placement(connection, table);
      }
      Map<ServerName, List<HRegionLocation>> held = new HashMap<>();
      servers.forEach(s -> held.put(s, new ArrayList<>()));
      List<HRegionLocation> spare = new ArrayList<>();
      for (HRegionLocation l : now.values()) {
        List<HRegionLocation> on = held.get(l.getServerName());
        if (on == null) {
          spare.add(l); // unassigned, or on a server that is not live any more
        } else {
          on.add(l);
        }
      }
      held.values().stream()
          .filter(on -> on.size() > 1)
          .forEach(on -> spare.addAll(on.subList(1, on.size())));
      boolean moved = false;
      for (ServerName s : servers) {
        if (held.get(s).isEmpty()) {
          HRegionLocation l = spare.remove(spare.size() - 1);
          admin.move(l.getRegion().getEncodedNameAsBytes(), s);
          moved = true;
        }
      }
      return moved ? awaitCovering(connection, table, servers) : now;
    }
  }

  /** The placement once every server holds a fence region (or after 30 s, as it is then). */
  private static Map<Integer, HRegionLocation> awaitCovering(
      Connection connection, TableName table, List<ServerName> servers) throws IOException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      Map<Integer, HRegionLocation> now = placement(connection, table);
      java.util.Set<ServerName> held = new java.util.HashSet<>();
      now.values().forEach(l -> held.add(l.getServerName()));
      if (held.containsAll(servers) || System.nanoTime() > deadline) {
        return now;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return now;
      }
    }
  }

  /** Writes one fence into every region of the fence table; returns the regions written. */
  public static List<Integer> write(
      Connection connection,
      TableName table,
      String peerId,
      long fenceId,
      Map<Integer, HRegionLocation> placement)
      throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int region : placement.keySet()) {
      puts.add(
          new Put(fenceRow(region, peerId, fenceId))
              .addColumn(FAMILY, FENCE, Bytes.toBytes(fenceId)));
    }
    try (Table t = connection.getTable(table)) {
      t.put(puts);
    }
    return List.copyOf(placement.keySet());
  }

  /**
   * The acknowledgements of a round so far, read from the target's cluster: region index to the
   * number of source edits the endpoint saw after the fence in its batch.
   */
  public static Map<Integer, Long> acks(
      Connection target, TableName table, String peerId, long fenceId) throws IOException {
    Map<Integer, Long> out = new LinkedHashMap<>();
    try (Table t = target.getTable(table)) {
      Result r = t.get(new Get(ackRow(peerId, fenceId)).addFamily(FAMILY));
      for (Cell c : r.rawCells()) {
        out.put(Bytes.toInt(CellUtil.cloneQualifier(c)), Bytes.toLong(CellUtil.cloneValue(c)));
      }
    }
    return out;
  }

  /** The fence cells of {@code peerId} in an edit of the fence table. */
  static List<Fence> in(List<Cell> cells, String peerId) {
    List<Fence> out = new ArrayList<>();
    for (Cell c : cells) {
      Fence f = parse(CellUtil.cloneRow(c), peerId);
      if (f != null
          && c.getType() == Cell.Type.Put
          && CellUtil.matchingFamily(c, FAMILY)
          && Arrays.equals(CellUtil.cloneQualifier(c), FENCE)
          && !out.contains(f)) {
        out.add(f);
      }
    }
    return out;
  }
}
