package io.rekey.bench;

import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.options.ReadMode;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.write.HFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The copy floor: what any tool that copies a table through HBase's files must pay. A new snapshot
 * of the source read through the same {@link TableRead} (same read tasks, same scan) as rekey, each
 * task writing its cells to HFiles in the order it reads them, with rekey's writer and the source
 * family's settings ({@link HFiles}), and the files bulk-loaded into a table of the source's own
 * layout and regions: no key mapping, no shuffle, no sort, no ledger or census. Timed in the same
 * rounds as rekey.
 */
final class CopyFloor {
  private CopyFloor() {}

  /** The floor as a benchmark method named {@code copyFloor}, copying into {@code targetName}. */
  static Rounds.Method method(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String source,
      String targetName,
      Scan scan) {
    return new Rounds.Method(
        "copyFloor", r -> copy(sc, connection, conf, source, targetName, scan, r));
  }

  static long copy(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String source,
      String targetName,
      Scan scan,
      Map<String, Object> record)
      throws IOException {
    long started = System.nanoTime();
    TableName src = TableName.valueOf(source);
    TableDescriptor descriptor = connection.getAdmin().getDescriptor(src);
    List<byte[]> splits = new ArrayList<>();
    try (RegionLocator regions = connection.getRegionLocator(src)) {
      byte[][] starts = regions.getStartKeys();
      splits.addAll(Arrays.asList(starts).subList(1, starts.length));
    }
    TableName target = RekeyBenchmark.fresh(connection, targetName, descriptor, splits);
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put("createTable", seconds(started));
    List<FamilySettings> families = new ArrayList<>();
    for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
      families.add(FamilySettings.of(f));
    }
    Path staging =
        new Path(RunFiles.staging(conf, null), "bench-copy-floor-" + System.currentTimeMillis());
    try (TableRead read =
        TableRead.open(
            sc,
            connection,
            conf,
            src,
            scan,
            ReadMode.SNAPSHOT,
            RunFiles.staging(conf, null),
            "bench-copy-floor")) {
      Map<String, Object> settings = new LinkedHashMap<>(ReadFloor.readSettings(read, scan));
      settings.put("write", "HFiles in read order with the source family's settings");
      settings.put("targetRegions", splits.size() + 1);
      settings.put("loadThreads", RekeyBenchmark.LOAD_THREADS);
      record.put("settings", settings);
      ShippedConfiguration shipped = new ShippedConfiguration(conf);
      String dir = staging.toString();
      String table = target.getNameAsString();
      long cells =
          read.rows()
              .mapPartitionsWithIndex(
                  (partition, rows) -> {
                    Configuration c = shipped.get();
                    FileSystem fs = new Path(dir).getFileSystem(c);
                    Map<String, StoreFileWriter> writers = new HashMap<>();
                    long n = 0;
                    while (rows.hasNext()) {
                      Result row = rows.next()._2();
                      for (Cell cell : row.rawCells()) {
                        String family = Bytes.toString(CellUtil.cloneFamily(cell));
                        StoreFileWriter w = writers.get(family);
                        if (w == null) {
                          w =
                              HFiles.open(
                                  c,
                                  fs,
                                  new Path(new Path(dir, family), "p" + partition),
                                  settingsOf(families, family),
                                  table);
                          writers.put(family, w);
                        }
                        w.append(cell);
                        n++;
                      }
                    }
                    for (StoreFileWriter w : writers.values()) {
                      HFiles.close(w, "copy-floor/p" + partition);
                    }
                    return List.of(n).iterator();
                  },
                  false)
              .reduce(Long::sum);
      phases.put("snapshotReadAndWrite", seconds(started) - phases.get("createTable"));
      // Loaded with the threads rekey loads with, as hbase-spark's files are.
      Configuration load = new Configuration(conf);
      load.setInt("hbase.loadincremental.threads.max", RekeyBenchmark.LOAD_THREADS);
      BulkLoadHFiles.create(load).bulkLoad(target, staging);
      phases.put(
          "bulkLoad",
          seconds(started) - phases.get("createTable") - phases.get("snapshotReadAndWrite"));
      record.put("phaseSeconds", phases);
      return cells;
    } finally {
      RekeyBenchmark.deleteQuietly(conf, staging);
    }
  }

  private static double seconds(long since) {
    return RekeyBenchmark.round((System.nanoTime() - since) / 1e9);
  }

  private static FamilySettings settingsOf(List<FamilySettings> families, String name) {
    for (FamilySettings f : families) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    throw new IllegalStateException("no family " + name);
  }
}
