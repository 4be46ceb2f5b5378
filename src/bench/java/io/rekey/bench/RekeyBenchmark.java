package io.rekey.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.rekey.common.Json;
import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.hbase.TableAdmin;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.keys.SplitPoints;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.read.ReadOptions;
import io.rekey.read.SourceReader;
import io.rekey.read.TableRead;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.RekeyResult;
import io.rekey.run.RunFiles;
import io.rekey.spark.JobContext;
import io.rekey.spark.SparkCores;
import io.rekey.spark.SparkSessions;
import java.io.IOException;
import java.io.Serializable;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.spark.FamilyHFileWriteOptions;
import org.apache.hadoop.hbase.spark.JavaHBaseContext;
import org.apache.hadoop.hbase.spark.KeyFamilyQualifier;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The rekey benchmark: on one source table, in one run and one JVM, times this tool's rekey against
 * the two things people use instead, with the same key mapping, the same snapshot reader and the
 * same pre-split target: a Put-based copy (Spark foreachPartition + BufferedMutator) and
 * hbase-spark's bulk load (which stamps every cell with the load time). Prints JSON.
 *
 * <p>Run by {@code jobs/bench-rekey.sh}, against the local HBase (or any cluster through
 * HBASE_CONF_DIR).
 */
public final class RekeyBenchmark {
  static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";
  static final String TARGET_KEY = "salt(16, sender) + sender + reverse_ts(ts) + msgid";

  /** The Put peers' write buffer: 8 MB, four times HBase's default, a round trip per 8 MB. */
  static final long WRITE_BUFFER_BYTES = 8L << 20;

  /** Bulk-load threads for every method that bulk-loads: the tool's default (BulkLoader). */
  static final int LOAD_THREADS = 16;

  public static void main(String[] args) throws Exception {
    String source = args.length > 0 ? args[0] : "bench:messages";
    Path out = Path.of(args.length > 1 ? args[1] : "var/bench/rekey-bench.json");
    HBaseSettings settings = clusterSettings();
    Configuration conf = settings.toConfiguration();
    JavaSparkContext sc = spark("rekey-bench");
    KeyMapping mapping = KeyMapping.parse(SOURCE_KEY, TARGET_KEY);
    Map<String, Object> report = new LinkedHashMap<>();
    try (Connection connection = HBaseConnections.open(settings)) {
      TableName src = TableName.valueOf(source);
      long cells = countCells(connection, src);
      report.put("source", source);
      report.put("sourceCells", cells);
      report.put("mapping", SOURCE_KEY + "  =>  " + TARGET_KEY);
      report.put("sparkMaster", sc.master());
      List<byte[]> splits = SplitPoints.plan(mapping.target(), 16, List.of());
      TableDescriptor sourceDescriptor = connection.getAdmin().getDescriptor(src);
      // -Dbench.rekeyOnly=true: rounds of rekey alone, for profiling it; no report is written.
      if (Boolean.getBoolean("bench.rekeyOnly")) {
        for (int round = 1; round <= Integer.getInteger("bench.rounds", 5); round++) {
          fresh(connection, "bench:t_rekey", null, null);
          System.err.println(
              "bench: rekey " + measure(r -> rekey(sc, connection, conf, source, r)));
        }
        sc.stop();
        return;
      }
      Rounds rounds =
          Rounds.fromProperties(5)
              .run(
                  "rekey",
                  List.of(
                      new Rounds.Method("rekey", r -> rekey(sc, connection, conf, source, r)),
                      ReadFloor.method(sc, connection, conf, source, sourceScan()),
                      CopyFloor.method(
                          sc, connection, conf, source, "bench:t_copy_floor", sourceScan()),
                      new Rounds.Method(
                          "putBased",
                          r ->
                              putCopy(
                                  sc,
                                  connection,
                                  conf,
                                  src,
                                  fresh(connection, "bench:t_put", sourceDescriptor, splits),
                                  mapping,
                                  r),
                          put -> put.put("flushSeconds", flushSeconds(connection, "bench:t_put"))),
                      new Rounds.Method(
                          "hbaseSpark",
                          r ->
                              hbaseSparkBulkLoad(
                                  sc,
                                  connection,
                                  conf,
                                  src,
                                  fresh(
                                      connection, "bench:t_hbase_spark", sourceDescriptor, splits),
                                  mapping,
                                  sourceDescriptor,
                                  r))),
                  // Dropping the previous round's tables is not part of any method's time.
                  () -> {
                    for (String t :
                        List.of(
                            "bench:t_rekey",
                            "bench:t_copy_floor",
                            "bench:t_put",
                            "bench:t_hbase_spark")) {
                      fresh(connection, t, null, null);
                    }
                  });
      report.put("rounds", rounds.describe());
      Map<String, Object> rekey = rounds.summary("rekey");
      rekey.put("medianStageSeconds", rounds.medianStages("rekey"));
      rekey.put(
          "timestampsKept",
          timestampsKept(connection, src, TableName.valueOf("bench:t_rekey"), mapping));
      report.put("rekey", rekey);
      report.put("floor", rounds.summary("floor"));
      report.put("copyFloor", rounds.summary("copyFloor"));
      Map<String, Object> put = rounds.summary("putBased");
      put.put(
          "timestampsKept",
          timestampsKept(connection, src, TableName.valueOf("bench:t_put"), mapping));
      report.put("putBased", put);
      Map<String, Object> hbaseSpark = rounds.summary("hbaseSpark");
      hbaseSpark.put(
          "timestampsKept",
          timestampsKept(connection, src, TableName.valueOf("bench:t_hbase_spark"), mapping));
      hbaseSpark.put(
          "note",
          "hbase-spark's bulkLoad stamps every cell with the load time: source timestamps and"
              + " versions are lost");
      report.put("hbaseSpark", hbaseSpark);
      report.put("rekeyVsPutBased", rounds.speedup("rekey", "putBased"));
      report.put("rekeyVsHbaseSpark", rounds.speedup("rekey", "hbaseSpark"));
      report.put("rekeyOverFloor", rounds.overFloor("rekey", "floor"));
      report.put("rekeyOverCopyFloor", rounds.overFloor("rekey", "copyFloor"));
      report.put(
          "rekeyVsPutBasedWithFlushMedianOfRounds",
          rounds.speedupWith("rekey", "putBased", "flushSeconds"));
      // Verify against HBase's HashTable + SyncTable on the same-key copy the copy floor left,
      // last:
      // its MapReduce jobs slow the Spark code that runs after them in this JVM.
      if (!Boolean.getBoolean("bench.noHashSync")) {
        report.put(
            "verifyPeer",
            HashSyncPeer.compare(
                sc, connection, conf, source, "bench:t_copy_floor", SOURCE_KEY, out.getParent()));
      }
      report.put("processPeakRssMiB", peakRssMiB());
    }
    writeReport(report, out);
    sc.stop();
  }

  /** The scan rekey reads this mapping's source with (text-only key: batched), for its peers. */
  static Scan sourceScan() {
    return SourceReader.fullScan(ReadOptions.BATCH.defaultValue().intValue(), false);
  }

  /** The cluster the benchmarks run against: HBASE_CONF_DIR, by default the local HBase's. */
  static HBaseSettings clusterSettings() {
    return new HBaseSettings(
        null, Path.of(System.getenv().getOrDefault("HBASE_CONF_DIR", "var/conf")));
  }

  /** The benchmark's Spark context, with {@link SparkStages} listening to it. */
  static JavaSparkContext spark(String app) {
    JavaSparkContext sc =
        JavaSparkContext.fromSparkContext(SparkSessions.getOrCreate(app).sparkContext());
    sparkStages = SparkStages.on(sc.sc());
    return sc;
  }

  // What Spark did during each measured method (null before spark() was called).
  private static SparkStages sparkStages;

  /** Writes the report as JSON to {@code out} and prints it. */
  static void writeReport(Map<String, Object> report, Path out) throws IOException {
    String json = Json.toJson(report);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, json + "\n");
    System.out.println(json);
  }

  static long rekey(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String source,
      Map<String, Object> record)
      throws IOException {
    return rekey(sc, connection, conf, source, "bench:t_rekey", record);
  }

  /** Rekeys {@code source} into a new table {@code targetName}, verify off as for the peers. */
  static long rekey(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String source,
      String targetName,
      Map<String, Object> record)
      throws IOException {
    TableName target = fresh(connection, targetName, null, null);
    RekeyOptions options =
        RekeyOptions.from(
            OptionValues.empty()
                .with("source", source)
                .with("target", target.getNameAsString())
                .with("source-key", SOURCE_KEY)
                .with("target-key", TARGET_KEY)
                .with("no-verify", "true")
                .validate(RekeyOptions.declared()));
    RekeyResult r =
        new RekeyJob(
                new JobContext(sc, connection, conf),
                options,
                RekeyJob.plan(new JobContext(sc, connection, conf), options))
            .execute();
    recordHFileJob(
        record,
        sc,
        r.stageSeconds(),
        "snapshot; batch " + options.batch() + ", caching 500, raw false, all versions true");
    return r.cellsWritten();
  }

  /** What a job of this tool that writes HFiles records: its stages and its read and load. */
  static void recordHFileJob(
      Map<String, Object> record, JavaSparkContext sc, Map<String, Double> stages, String scan) {
    record.put("stages", stages);
    record.put(
        "settings",
        Map.of(
            "readTasks",
            SourceReader.readTasks(SparkCores.of(sc).cores()),
            "scan",
            scan,
            "loadThreads",
            LOAD_THREADS,
            "write",
            "HFiles by the write engine, bulk-loaded (BulkLoader: 16 threads)"));
  }

  interface Run {
    long cells() throws Exception;
  }

  /** A measured method that records more than its cells: settings, stage times. */
  interface Timed {
    long cells(Map<String, Object> record) throws Exception;
  }

  /**
   * Times one method. Each starts after a full collection, so that the garbage of the one before is
   * not counted as its own; the bench JVM keeps its heap through it (jobs/lib/common.sh). {@code
   * peakHeapMiB} is the heap's peak use, garbage not yet collected included, so it follows the
   * young generation's size; {@code peakLiveHeapMiB} is the most the heap held right after a
   * collection during the run: what the method kept, without its garbage (null when no collection
   * ran).
   */
  static Map<String, Object> measure(Run run) throws Exception {
    return measure(record -> run.cells());
  }

  /** {@link #measure(Run)}, with what the method records beside its figures. */
  static Map<String, Object> measure(Timed run) throws Exception {
    Map<String, Object> record = new LinkedHashMap<>();
    System.gc();
    List<MemoryPoolMXBean> heap = new ArrayList<>();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        p.resetPeakUsage();
        heap.add(p);
      }
    }
    long cells;
    double secs;
    long live;
    SparkStages stages = sparkStages;
    int mark = stages == null ? 0 : stages.mark();
    CpuUse cpu = CpuUse.start();
    try (LiveHeap liveHeap = new LiveHeap(heap)) {
      long t0 = System.nanoTime();
      cells = run.cells(record);
      secs = (System.nanoTime() - t0) / 1e9;
      live = liveHeap.peak();
    }
    record.put("cpu", cpu.since(secs));
    if (stages != null) {
      record.put("spark", stages.since(mark, secs));
    }
    long peak = 0;
    for (MemoryPoolMXBean p : heap) {
      peak += p.getPeakUsage().getUsed();
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cells", cells);
    m.put("seconds", round(secs));
    m.put("cellsPerSecond", round(cells / secs));
    m.put("peakHeapMiB", peak >> 20);
    m.put("peakLiveHeapMiB", live < 0 ? null : live >> 20);
    m.putAll(record);
    return m;
  }

  /** The most heap in use right after a collection, from the collectors' notifications. */
  static final class LiveHeap implements NotificationListener, AutoCloseable {
    private final Set<String> heapPools = new HashSet<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private long peak = -1;

    LiveHeap(List<MemoryPoolMXBean> heap) {
      heap.forEach(p -> heapPools.add(p.getName()));
      for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (collector instanceof NotificationEmitter emitter) {
          emitter.addNotificationListener(this, null, null);
          emitters.add(emitter);
        }
      }
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
      if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
          notification.getType())) {
        return;
      }
      GarbageCollectionNotificationInfo info =
          GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
      long used = 0;
      for (Map.Entry<String, MemoryUsage> pool :
          info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
        if (heapPools.contains(pool.getKey())) {
          used += pool.getValue().getUsed();
        }
      }
      synchronized (this) {
        peak = Math.max(peak, used);
      }
    }

    synchronized long peak() {
      return peak;
    }

    @Override
    public void close() throws ListenerNotFoundException {
      for (NotificationEmitter emitter : emitters) {
        emitter.removeNotificationListener(this);
      }
    }
  }

  static TableName fresh(Connection c, String name, TableDescriptor like, List<byte[]> splits)
      throws IOException {
    TableName t = TableName.valueOf(name);
    try (Admin admin = c.getAdmin()) {
      if (admin.tableExists(t)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
    }
    if (like != null) {
      new TableAdmin(c).createLike(like, t, splits);
    }
    return t;
  }

  static void deleteQuietly(Configuration conf, org.apache.hadoop.fs.Path dir) {
    try {
      dir.getFileSystem(conf).delete(dir, true);
    } catch (IOException e) {
      System.err.println("bench: cannot delete " + dir + ": " + e.getMessage());
    }
  }

  /**
   * What most people write first: map each row, Put it with the cells' own timestamps. The same
   * read as rekey's (a new snapshot, the same read tasks and scan).
   */
  static long putCopy(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      TableName src,
      TableName target,
      KeyMapping mapping,
      Map<String, Object> record) {
    Scan scan = sourceScan();
    try (TableRead read = peerRead(sc, connection, conf, src, scan, "bench-put")) {
      record.put("settings", putSettings(read, scan));
      return putEachRow(
          sc,
          conf,
          read.rows(),
          target.getNameAsString(),
          r -> {
            byte[] row;
            try {
              row =
                  mapping.map(r.getRow(), (f, q) -> r.getValue(Bytes.toBytes(f), Bytes.toBytes(q)));
            } catch (KeyReject e) {
              return List.of();
            }
            Put p = new Put(row);
            for (Cell cell : r.rawCells()) {
              p.addColumn(
                  CellUtil.cloneFamily(cell),
                  CellUtil.cloneQualifier(cell),
                  cell.getTimestamp(),
                  CellUtil.cloneValue(cell));
            }
            return List.of(p);
          });
    }
  }

  /** A peer's read: a new snapshot through the tool's own reader, as its jobs read. */
  static TableRead peerRead(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      TableName table,
      Scan scan,
      String purpose) {
    return TableRead.open(
        sc,
        connection,
        conf,
        table,
        scan,
        ReadMode.SNAPSHOT,
        RunFiles.staging(conf, null),
        purpose);
  }

  /** What a Put-based peer's read and write were. */
  static Map<String, Object> putSettings(TableRead read, Scan scan) {
    Map<String, Object> settings = new LinkedHashMap<>(ReadFloor.readSettings(read, scan));
    settings.put("writeTasks", read.rows().getNumPartitions());
    settings.put(
        "write",
        "one BufferedMutator per task, write buffer "
            + (WRITE_BUFFER_BYTES >> 20)
            + " MiB, on one connection per executor (ExecutorConnections, as the tool's own Put"
            + " paths); HBase's defaults otherwise");
    return settings;
  }

  /**
   * Flushes {@code table}'s memstores and returns the seconds it took: the work a Put-based copy
   * leaves to its region servers when its last Put is acknowledged, while a bulk-loaded table is in
   * store files already. Reported beside the Put-based time, not inside it.
   */
  static double flushSeconds(Connection c, String table) throws IOException {
    long t0 = System.nanoTime();
    try (Admin admin = c.getAdmin()) {
      admin.flush(TableName.valueOf(table));
    }
    return round((System.nanoTime() - t0) / 1e9);
  }

  /** What a Put-based peer makes of one source row (nothing for a row it cannot map). */
  interface RowPuts extends Serializable {
    List<Put> of(Result row) throws IOException;
  }

  /**
   * The Put-based peers' write: Spark {@code foreachPartition}, one buffered mutator (8 MB of Puts
   * per round trip) per task on the executor's one shared connection, each row's Puts sent as they
   * are made.
   *
   * @return the cells written
   */
  static long putEachRow(
      JavaSparkContext sc,
      Configuration conf,
      JavaPairRDD<ImmutableBytesWritable, Result> rows,
      String table,
      RowPuts puts) {
    ShippedConfiguration shipped = new ShippedConfiguration(conf);
    LongAccumulator written = sc.sc().longAccumulator();
    rows.foreachPartition(
        it -> {
          try (BufferedMutator m =
              ExecutorConnections.get(shipped)
                  .getBufferedMutator(
                      new BufferedMutatorParams(TableName.valueOf(table))
                          .writeBufferSize(WRITE_BUFFER_BYTES))) {
            while (it.hasNext()) {
              for (Put p : puts.of(it.next()._2())) {
                m.mutate(p);
                written.add(p.size());
              }
            }
          }
        });
    return written.value();
  }

  /** One cell on its way through hbase-spark (a plain class: Spark's Kryo cannot read records). */
  static final class BenchCell implements Serializable {
    private static final long serialVersionUID = 1L;
    final byte[] row;
    final byte[] family;
    final byte[] qualifier;
    final byte[] value;

    BenchCell(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
      this.row = row;
      this.family = family;
      this.qualifier = qualifier;
      this.value = value;
    }
  }

  static long hbaseSparkBulkLoad(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      TableName src,
      TableName target,
      KeyMapping mapping,
      TableDescriptor descriptor,
      Map<String, Object> record)
      throws IOException {
    Scan scan = sourceScan();
    org.apache.hadoop.fs.Path staging = null;
    try (TableRead read = peerRead(sc, connection, conf, src, scan, "bench-hs")) {
      Map<String, Object> settings = new LinkedHashMap<>(ReadFloor.readSettings(read, scan));
      settings.put("loadThreads", LOAD_THREADS);
      settings.put(
          "write",
          "hbase-spark 1.0.1 JavaHBaseContext.bulkLoad (its own shuffle and HFile writer), cells"
              + " counted in the map (no second pass), BulkLoadHFiles with the tool's load"
              + " threads");
      record.put("settings", settings);
      // Counted as the cells are made: counting the RDD afterwards would read and map the whole
      // snapshot a second time.
      LongAccumulator counted = sc.sc().longAccumulator();
      JavaRDD<BenchCell> cells =
          read.rows()
              .flatMap(
                  t -> {
                    Result r = t._2();
                    List<BenchCell> out = new ArrayList<>();
                    byte[] row;
                    try {
                      row =
                          mapping.map(
                              r.getRow(), (f, q) -> r.getValue(Bytes.toBytes(f), Bytes.toBytes(q)));
                    } catch (KeyReject e) {
                      return out.iterator();
                    }
                    for (Cell cell : r.rawCells()) {
                      out.add(
                          new BenchCell(
                              row,
                              CellUtil.cloneFamily(cell),
                              CellUtil.cloneQualifier(cell),
                              CellUtil.cloneValue(cell)));
                    }
                    counted.add(out.size());
                    return out.iterator();
                  });
      Map<byte[], FamilyHFileWriteOptions> options = new HashMap<>();
      for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
        options.put(
            f.getName(),
            new FamilyHFileWriteOptions(
                f.getCompressionType().name(),
                f.getBloomFilterType().name(),
                f.getBlocksize(),
                f.getDataBlockEncoding().name()));
      }
      staging =
          new org.apache.hadoop.fs.Path(
              conf.get("hbase.rootdir") + "/../bench-hbase-spark-" + System.currentTimeMillis());
      new JavaHBaseContext(sc, conf)
          .bulkLoad(
              cells,
              target,
              c -> new Pair<>(new KeyFamilyQualifier(c.row, c.family, c.qualifier), c.value),
              staging.toString(),
              options,
              false,
              1L << 30);
      Configuration load = new Configuration(conf);
      load.setInt("hbase.loadincremental.threads.max", LOAD_THREADS);
      BulkLoadHFiles.create(load).bulkLoad(target, staging);
      return counted.value();
    } finally {
      if (staging != null) {
        deleteQuietly(conf, staging);
      }
    }
  }

  /** Whether the first 200 source rows' cells sit in the target with their own timestamps. */
  static boolean timestampsKept(Connection c, TableName src, TableName dst, KeyMapping mapping)
      throws IOException {
    try (Table s = c.getTable(src);
        Table d = c.getTable(dst);
        ResultScanner scanner = s.getScanner(new Scan().readAllVersions().setLimit(200))) {
      for (Result r : scanner) {
        byte[] row;
        try {
          row = mapping.map(r.getRow(), (f, q) -> r.getValue(Bytes.toBytes(f), Bytes.toBytes(q)));
        } catch (KeyReject e) {
          continue;
        }
        Result copy = d.get(new org.apache.hadoop.hbase.client.Get(row).readAllVersions());
        if (copy.rawCells().length != r.rawCells().length) {
          return false;
        }
        for (int i = 0; i < r.rawCells().length; i++) {
          if (r.rawCells()[i].getTimestamp() != copy.rawCells()[i].getTimestamp()) {
            return false;
          }
        }
      }
    }
    return true;
  }

  static long countCells(Connection c, TableName t) throws IOException {
    long n = 0;
    try (Table table = c.getTable(t);
        ResultScanner s =
            table.getScanner(
                new Scan()
                    .readAllVersions()
                    .setCaching(1000)
                    .setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter()))) {
      for (Result r : s) {
        n += r.rawCells().length;
      }
    }
    return n;
  }

  static long peakRssMiB() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return -1;
  }

  static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private RekeyBenchmark() {}
}
