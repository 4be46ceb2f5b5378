package io.rekey.write;

import io.rekey.common.RekeyException;
import io.rekey.pacing.Throttle;
import io.rekey.run.RunFiles;
import io.rekey.write.LoadBatches.Batch;
import io.rekey.write.LoadBatches.StoreFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk-loads ledger entries in batches that never push a region past {@code
 * hbase.hstore.blockingStoreFiles}, where HBase would hold back the region's flushes, and with them
 * its clients' writes, until compactions catch up.
 *
 * <p>Before each batch it reads every region's store-file count (public {@link
 * Admin#getRegionMetrics}), and a batch takes an entry only while each region the entry's rows fall
 * in keeps one file of room for its own next flush. An entry adds one file to each such region
 * (HBase splits a file that spans regions). When no entry fits, it asks those regions for a
 * compaction (HBase does not ask by itself after a bulk load unless {@code
 * hbase.compaction.after.bulkload.enable} is set; a major one when a minor one did not make room
 * within half a minute) and waits, up to the throttle's {@code store-file-wait}, then stops with
 * {@link StoreFilesFull}. The throttle also bounds the regions per batch, pauses between batches
 * and loads one family at a time.
 *
 * <p>The limit is per store (a region's family), and so are the counts: each store's files as its
 * directory lists them ({@link StoreFileCensus#storeFileCounts}, which a compaction's leftovers can
 * make high for a couple of minutes, never low), capped by the region's total that its server
 * reports; where the directories cannot be listed, the region's total stands for each of its stores
 * (cautious). The regions are read again before every batch, so regions a split makes during the
 * load are paced too.
 */
final class PacedLoad {
  private static final Logger LOG = LoggerFactory.getLogger(PacedLoad.class);

  private static final long POLL_MS = 2_000;
  private static final long COMPACTION_REQUEST_EVERY_MS = 30_000;

  /** The load stopped because compactions did not make room in time. */
  static final class StoreFilesFull extends RekeyException {
    private static final long serialVersionUID = 1L;

    StoreFilesFull(String message) {
      super(message);
    }
  }

  /**
   * How a load was paced.
   *
   * @param batches bulk-load calls made
   * @param storeFileWaits times a batch waited for compactions before it could start
   * @param storeFileWaitMillis time spent waiting for compactions
   */
  record Pacing(int batches, int storeFileWaits, long storeFileWaitMillis) {
    static final Pacing NONE = new Pacing(0, 0, 0);

    Pacing plus(Pacing o) {
      return new Pacing(
          batches + o.batches,
          storeFileWaits + o.storeFileWaits,
          storeFileWaitMillis + o.storeFileWaitMillis);
    }
  }

  private final Configuration conf;
  private final TableName table;
  private final Path run;
  private final Throttle throttle;
  private Ledger ledger;
  private Pacing pacing = Pacing.NONE;
  private boolean perStoreUnreadableSaid;

  PacedLoad(Configuration conf, TableName table, Path run, Ledger ledger) {
    this.conf = conf;
    this.table = table;
    this.run = run;
    this.ledger = ledger;
    this.throttle = Throttle.of(conf);
  }

  /** The ledger as far as the batches loaded so far: after a failure, what is known loaded. */
  Ledger ledger() {
    return ledger;
  }

  Pacing pacing() {
    return pacing;
  }

  /** Loads {@code pending}, batch by batch, marking each batch loaded in the ledger. */
  Ledger load(List<Ledger.Entry> pending) throws IOException {
    Path hfiles = RunFiles.hfiles(run);
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Admin admin = connection.getAdmin()) {
      Map<String, Integer> limits =
          LoadBatches.limits(
              admin.getDescriptor(table),
              conf.getInt(LoadBatches.BLOCKING_KEY, LoadBatches.DEFAULT_BLOCKING));
      List<Ledger.Entry> left = new ArrayList<>(pending);
      long waitingSince = -1;
      long lastCompactionRequest = 0;
      while (!left.isEmpty()) {
        // Again before every batch: a split during the load makes regions of its own.
        List<HRegionLocation> regions =
            connection.getRegionLocator(table).getAllRegionLocations().stream()
                .sorted((a, b) -> RegionInfo.COMPARATOR.compare(a.getRegion(), b.getRegion()))
                .toList();
        StoreFiles files = storeFiles(admin, regions);
        Batch batch =
            LoadBatches.next(
                left,
                regions.stream().map(HRegionLocation::getRegion).toList(),
                files,
                limits,
                throttle.loadRegions(),
                throttle.loadPerFamily());
        if (batch.entries().isEmpty()) {
          long now = System.currentTimeMillis();
          if (waitingSince < 0) {
            waitingSince = now;
            lastCompactionRequest = 0;
            pacing = pacing.plus(new Pacing(0, 1, 0));
            LOG.warn(
                "bulk load into {} waits: store {} of region {} has {} store files and takes {} at"
                    + " most before it blocks writes (hbase.hstore.blockingStoreFiles, one kept for"
                    + " its next flush); asking for a compaction",
                table,
                batch.full().family(),
                batch.full().region(),
                files.count(batch.full()),
                batch.fullLimit());
          }
          if (now - waitingSince > throttle.storeFileWaitSeconds() * 1000) {
            throw new StoreFilesFull(
                "store "
                    + batch.full().family()
                    + " of region "
                    + batch.full().region()
                    + " of "
                    + table
                    + " still has "
                    + files.count(batch.full())
                    + " store files after "
                    + throttle.storeFileWaitSeconds()
                    + " s (loading more would pass hbase.hstore.blockingStoreFiles "
                    + batch.fullLimit()
                    + " and stall its writes); "
                    + left.size()
                    + " HFiles are not loaded yet. Let compactions catch up ('major_compact' in"
                    + " the hbase shell, or enable compactions on the table) and rerun the same"
                    + " command, which loads only the rest; or give --store-file-wait more time");
          }
          if (now - lastCompactionRequest > COMPACTION_REQUEST_EVERY_MS) {
            // A minor compaction first; when one did not make room (too few files in each store
            // to select), a major one.
            boolean major = lastCompactionRequest > 0;
            lastCompactionRequest = now;
            for (String region : batch.regionsWithoutRoom()) {
              if (major) {
                admin.majorCompactRegion(Bytes.toBytesBinary(region));
              } else {
                admin.compactRegion(Bytes.toBytesBinary(region));
              }
            }
          }
          sleep(POLL_MS);
          continue;
        }
        if (waitingSince >= 0) {
          long waited = System.currentTimeMillis() - waitingSince;
          pacing = pacing.plus(new Pacing(0, 0, waited));
          LOG.info("bulk load into {} goes on after waiting {} ms for compactions", table, waited);
          waitingSince = -1;
        }
        Map<byte[], List<Path>> byFamily = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        for (Ledger.Entry e : batch.entries()) {
          byFamily
              .computeIfAbsent(Bytes.toBytes(e.family()), f -> new ArrayList<>())
              .add(new Path(hfiles, e.name()));
        }
        if (pacing.batches() > 0 || !left.equals(batch.entries())) {
          LOG.info(
              "bulk loading a batch of {} HFiles into {} region(s) of {} ({} left after it)",
              batch.entries().size(),
              batch.regions(),
              table,
              left.size() - batch.entries().size());
        }
        BulkLoadHFiles.create(loaderConf(batch.regions())).bulkLoad(table, byFamily);
        ledger = ledger.withLoaded(batch.entries());
        ledger.write(conf, run);
        pacing = pacing.plus(new Pacing(1, 0, 0));
        left.removeAll(batch.entries());
        if (!left.isEmpty() && throttle.loadPauseMillis() > 0) {
          sleep(throttle.loadPauseMillis());
        }
      }
    }
    return ledger;
  }

  /** The loader's settings: no more threads than the batch has regions. */
  private Configuration loaderConf(int regions) {
    if (throttle.loadRegions() == 0) {
      return conf;
    }
    Configuration c = new Configuration(conf);
    c.setInt(
        BulkLoader.LOAD_THREADS_KEY,
        Math.max(1, Math.min(regions, c.getInt(BulkLoader.LOAD_THREADS_KEY, regions))));
    return c;
  }

  /** Store files per store, from the region servers and the stores' directories. */
  private StoreFiles storeFiles(Admin admin, List<HRegionLocation> regions) throws IOException {
    Map<String, Integer> totals = new HashMap<>();
    Map<String, String> encoded = new HashMap<>();
    Set<ServerName> servers = new HashSet<>();
    for (HRegionLocation l : regions) {
      encoded.put(l.getRegion().getRegionNameAsString(), l.getRegion().getEncodedName());
      if (l.getServerName() != null) {
        servers.add(l.getServerName());
      }
    }
    for (ServerName server : servers) {
      for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
        totals.put(m.getNameAsString(), m.getStoreFileCount());
      }
    }
    Map<String, Map<String, Integer>> perStore = null;
    try {
      perStore = StoreFileCensus.storeFileCounts(conf, table);
    } catch (IOException | RuntimeException e) {
      if (!perStoreUnreadableSaid) {
        perStoreUnreadableSaid = true;
        LOG.warn(
            "bulk load into {}: cannot list its stores' files ({}), so each region's store files"
                + " of all families together count against each family's limit: a table of many"
                + " families loads in smaller batches",
            table,
            e.getMessage());
      }
    }
    return new StoreFiles(totals, perStore, encoded);
  }

  private static void sleep(long ms) throws InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while pacing the bulk load");
    }
  }
}
