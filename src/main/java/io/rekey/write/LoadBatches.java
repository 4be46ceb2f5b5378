package io.rekey.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Which ledger entries a bulk load takes next, from the regions' store-file counts: the decision of
 * {@link PacedLoad}, apart from reading the counts and loading. An entry adds one file to each
 * region its rows fall in (HBase splits a file that spans regions), and is taken only while each of
 * those stores keeps one file of room below its blocking count for its own next flush; the throttle
 * may bound the regions per batch and keep a batch to one family.
 */
final class LoadBatches {
  static final String BLOCKING_KEY = "hbase.hstore.blockingStoreFiles";
  static final int DEFAULT_BLOCKING = 16;

  private LoadBatches() {}

  /** One store: a region (printable name) and a family. */
  record Store(String region, String family) {}

  /**
   * Store files per store: the store directory's count, capped by its region's total from the
   * region server; the region's total where the directories could not be listed.
   *
   * @param regionTotals files per region (printable name), all families, from the servers
   * @param perStore files per store from the directories, or null when they could not be listed
   * @param encoded each region's encoded name, by printable name
   */
  record StoreFiles(
      Map<String, Integer> regionTotals,
      Map<String, Map<String, Integer>> perStore,
      Map<String, String> encoded) {
    int count(Store s) {
      int total = regionTotals.getOrDefault(s.region(), 0);
      if (perStore == null) {
        return total;
      }
      Map<String, Integer> stores = perStore.get(encoded.get(s.region()));
      return stores == null ? total : Math.min(total, stores.getOrDefault(s.family(), 0));
    }
  }

  /**
   * A batch: its entries, or when empty, the first store that had no room.
   *
   * @param regions the regions the batch's entries fall in
   * @param full the first store with no room for an entry, or null
   * @param fullLimit that store's blocking count
   * @param regionsWithoutRoom regions that had no room before this batch: those to compact
   */
  record Batch(
      List<Ledger.Entry> entries,
      int regions,
      Store full,
      int fullLimit,
      Set<String> regionsWithoutRoom) {}

  /**
   * The entries to load next, in ledger order.
   *
   * @param regions the table's regions now
   * @param limits each family's blocking store-file count ({@link #limits})
   * @param maxRegions regions one batch may fill (0: any number)
   * @param perFamily whether a batch holds one family only
   */
  static Batch next(
      List<Ledger.Entry> left,
      List<RegionInfo> regions,
      StoreFiles files,
      Map<String, Integer> limits,
      int maxRegions,
      boolean perFamily) {
    List<Ledger.Entry> taken = new ArrayList<>();
    Map<Store, Integer> added = new HashMap<>();
    Set<String> batchRegions = new HashSet<>();
    Set<String> withoutRoom = new TreeSet<>();
    String family = null;
    Store full = null;
    int fullLimit = 0;
    for (Ledger.Entry e : left) {
      if (perFamily && family != null && !family.equals(e.family())) {
        continue;
      }
      int limit = limits.getOrDefault(e.family(), DEFAULT_BLOCKING);
      List<String> spanned = spanned(e, regions);
      Set<String> together = new HashSet<>(batchRegions);
      together.addAll(spanned);
      if (maxRegions > 0 && together.size() > maxRegions) {
        continue;
      }
      Store noRoom = null;
      for (String r : spanned) {
        Store s = new Store(r, e.family());
        if (files.count(s) + added.getOrDefault(s, 0) + 1 > limit - 1) {
          noRoom = s;
          break;
        }
      }
      if (noRoom != null) {
        if (added.getOrDefault(noRoom, 0) == 0) {
          withoutRoom.add(noRoom.region());
        }
        if (full == null) {
          full = noRoom;
          fullLimit = limit;
        }
        continue;
      }
      taken.add(e);
      family = e.family();
      batchRegions.addAll(spanned);
      for (String r : spanned) {
        added.merge(new Store(r, e.family()), 1, Integer::sum);
      }
    }
    return new Batch(taken, batchRegions.size(), full, fullLimit, withoutRoom);
  }

  /** The regions (printable names) that the entry's rows fall in. */
  static List<String> spanned(Ledger.Entry e, List<RegionInfo> regions) {
    byte[] first = Ledger.row(e.firstRow());
    byte[] last = Ledger.row(e.lastRow());
    List<String> out = new ArrayList<>();
    for (RegionInfo r : regions) {
      boolean startsAfterLast =
          r.getStartKey().length > 0 && Bytes.compareTo(r.getStartKey(), last) > 0;
      boolean endsBeforeFirst =
          r.getEndKey().length > 0 && Bytes.compareTo(r.getEndKey(), first) <= 0;
      if (!startsAfterLast && !endsBeforeFirst) {
        out.add(r.getRegionNameAsString());
      }
    }
    return out;
  }

  /**
   * Each family's blocking store-file count: its own setting, the table's, else the cluster's.
   *
   * @param cluster the cluster's {@code hbase.hstore.blockingStoreFiles}
   */
  static Map<String, Integer> limits(TableDescriptor descriptor, int cluster) {
    String tableValue = descriptor.getValue(BLOCKING_KEY);
    int forTable = tableValue == null ? cluster : Integer.parseInt(tableValue.trim());
    Map<String, Integer> limits = new HashMap<>();
    for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
      String own = f.getConfigurationValue(BLOCKING_KEY);
      limits.put(f.getNameAsString(), own == null ? forTable : Integer.parseInt(own.trim()));
    }
    return limits;
  }
}
