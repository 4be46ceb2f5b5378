package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import io.rekey.read.TableRead;
import io.rekey.spark.Faults;
import io.rekey.spark.JobContext;
import io.rekey.testing.EveryCell;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** rekey on a real mini cluster with real Spark: every cell, timestamp and version survives. */
class RekeyIT extends OnMiniCluster {
  static final long T0 = 1_767_225_600_000L;
  static final String SOURCE_KEY = "text: ts:long + '_' + user + '_' + order";
  static final String SALTED = "salt(8, user) + user + reverse_ts(ts) + order";

  static Connection connection;
  static Configuration conf;

  /** The options of a rekey from {@link #SOURCE_KEY} to {@code targetKey}, to add more to. */
  static OptionsBuilder<RekeyOptions> rekeyOptions(String source, String target, String targetKey) {
    return RekeyOptions.builder()
        .set(RekeyOptions.SOURCE, source)
        .set(RekeyOptions.TARGET, target)
        .set(RekeyOptions.SOURCE_KEY, SOURCE_KEY)
        .set(RekeyOptions.TARGET_KEY, targetKey);
  }

  static RekeyOptions options(String source, String target, String targetKey) {
    return rekeyOptions(source, target, targetKey).build();
  }

  static RekeyJob job(RekeyOptions options) {
    return job(options, Faults.NONE);
  }

  /** A job on the mini cluster, broken where {@code faults} says. */
  static RekeyJob job(RekeyOptions options, Faults faults) {
    JobContext job = SparkLocal.job(connection, conf).withFaults(faults);
    return new RekeyJob(job, options, RekeyJob.plan(job, options));
  }

  static ColumnFamilyDescriptor richFamily() {
    return ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("d"))
        .setMaxVersions(3)
        .setCompressionType(Compression.Algorithm.GZ)
        .setBloomFilterType(BloomType.ROWCOL)
        .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
        .setBlocksize(16 * 1024)
        .build();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Rows {@code ts_userN_oN}: 3 versions in d:v, an empty value, a binary value, some big ones. */
  static TableName messages(String name, int rows) throws Exception {
    TableName t = TableName.valueOf(name);
    TestTables.create(t, richFamily(), ColumnFamilyDescriptorBuilder.of("m"));
    SplittableRandom random = new SplittableRandom(7);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      String key = (T0 + i * 1000L) + "_user" + (i % 13) + "_o" + i;
      Put p = new Put(b(key));
      for (int v = 0; v < 3; v++) {
        p.addColumn(b("d"), b("v"), T0 + i * 1000L + v, b("value" + i + "." + v));
      }
      p.addColumn(b("d"), b("empty"), T0 + i, new byte[0]);
      byte[] binary = new byte[16];
      random.nextBytes(binary);
      p.addColumn(b("m"), b("bin"), T0 + i, binary);
      if (i % 50 == 0) {
        byte[] big = new byte[1 << 20];
        random.nextBytes(big);
        p.addColumn(b("m"), b("big"), T0 + i, big);
      }
      puts.add(p);
    }
    TestTables.put(t, puts);
    return t;
  }

  /** The source's cells as the target must hold them: through the mapping, same everything else. */
  static List<String> expected(TableName source, KeyMapping mapping) throws Exception {
    return TestTables.mapped(source, mapping);
  }

  /** The source rows a normal read returns whose key the mapping rejects. */
  static List<String> unmappedRows(TableName source, KeyMapping mapping) throws Exception {
    List<String> out = new ArrayList<>();
    try (Table t = connection.getTable(source);
        ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        try {
          mapping.map(r.getRow(), (f, q) -> r.getValue(b(f), b(q)));
        } catch (io.rekey.keys.KeyReject e) {
          out.add(org.apache.hadoop.hbase.util.Bytes.toString(r.getRow()));
        }
      }
    }
    return out;
  }

  static List<String> actual(TableName target) throws Exception {
    return TestTables.sortedCells(target);
  }

  @Test
  @EveryCell
  void copiesEveryCellVersionAndTimestampIntoAPreSplitTableWithTheSameFamilySettings()
      throws Exception {
    TableName source = messages("rk_round_src", 400);
    RekeyOptions options = options("rk_round_src", "rk_round_dst", SALTED);
    RekeyResult result = job(options).execute();

    assertThat(result.state()).isEqualTo("LOADED");
    assertThat(result.rowsRead()).isEqualTo(400);
    assertThat(result.cellsRead()).isEqualTo(400 * 5 + 8);
    assertThat(result.cellsWritten()).isEqualTo(result.cellsRead());
    assertThat(result.countsAddUp()).isTrue();
    assertThat(result.verify().matches()).isTrue();
    assertThat(result.verify().targetCells()).isEqualTo(result.cellsRead());
    assertThat(actual(TableName.valueOf("rk_round_dst")))
        .isEqualTo(expected(source, options.mapping()));

    try (Admin admin = connection.getAdmin()) {
      var target = admin.getDescriptor(TableName.valueOf("rk_round_dst"));
      var d = target.getColumnFamily(b("d"));
      assertThat(d.getMaxVersions()).isEqualTo(3);
      assertThat(d.getCompressionType()).isEqualTo(Compression.Algorithm.GZ);
      assertThat(d.getBloomFilterType()).isEqualTo(BloomType.ROWCOL);
      assertThat(d.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.FAST_DIFF);
      assertThat(d.getBlocksize()).isEqualTo(16 * 1024);
      assertThat(admin.getRegions(TableName.valueOf("rk_round_dst"))).hasSize(8);
    }
    // The snapshot is gone and nothing is left to load.
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.listSnapshots()).noneMatch(s -> s.getName().startsWith("rekey-rk_round"));
    }
  }

  @Test
  @EveryCell
  void binaryKeysThroughALiveScan() throws Exception {
    TableName source = TableName.valueOf("rk_bin_src");
    TestTables.create(source, ColumnFamilyDescriptorBuilder.of("d"));
    List<Put> puts = new ArrayList<>();
    for (long user = 0; user < 300; user++) {
      byte[] key = Bytes.add(Bytes.toBytes(user), Bytes.toBytes(T0 + user));
      puts.add(
          new Put(key).addColumn(b("d"), new byte[] {0, (byte) 0xFF}, T0, new byte[] {0, 1, 2}));
    }
    TestTables.put(source, puts);
    OptionValues v =
        OptionValues.empty()
            .with("source", "rk_bin_src")
            .with("target", "rk_bin_dst")
            .with("source-key", "userId:long + ts:long")
            .with("target-key", "hash(userId, bytes=2) + userId + reverse_ts(ts)")
            .with("regions", "4")
            .with("live-scan", "true");
    RekeyOptions options = RekeyOptions.from(v.validate(RekeyOptions.declared()));
    RekeyResult result = job(options).execute();
    assertThat(result.plan().read()).isEqualTo("live-scan");
    assertThat(result.verify().matches()).isTrue();
    assertThat(result.plan().targetRegions()).isEqualTo(4);
    assertThat(actual(TableName.valueOf("rk_bin_dst")))
        .isEqualTo(expected(source, options.mapping()));
  }

  @Test
  @EveryCell
  void aWideRowIsReadInBatchesAndCopiedWhole() throws Exception {
    TableName source = TableName.valueOf("rk_wide_src");
    TestTables.create(source, ColumnFamilyDescriptorBuilder.of("d"));
    List<Put> puts = new ArrayList<>();
    Put wide = new Put(b(T0 + "_userW_wide"));
    for (int q = 0; q < 100_000; q++) {
      wide.addColumn(b("d"), b(String.format("q%06d", q)), T0, b("v" + q));
    }
    puts.add(wide);
    for (int i = 0; i < 20; i++) {
      puts.add(new Put(b((T0 + i) + "_user" + i + "_o")).addColumn(b("d"), b("x"), T0, b("y")));
    }
    try (Table t = connection.getTable(source)) {
      t.put(puts);
    }
    RekeyOptions options =
        rekeyOptions("rk_wide_src", "rk_wide_dst", SALTED).set(RekeyOptions.BATCH, 5000L).build();
    RekeyResult result = job(options).execute();
    assertThat(result.rowsRead()).isEqualTo(21);
    assertThat(result.cellsRead()).isEqualTo(100_020);
    assertThat(result.cellsWritten()).isEqualTo(100_020);
    assertThat(result.verify().matches()).isTrue();
    assertThat(TestTables.countCells(TableName.valueOf("rk_wide_dst"))).isEqualTo(100_020);
  }

  @Test
  @EveryCell
  void rejectsOverTheThresholdStopBeforeLoadingAndUnderItAreCounted() throws Exception {
    TableName source = messages("rk_rej_src", 100);
    List<Put> bad = new ArrayList<>();
    for (String key : List.of("garbage", "x_y", "12a_user_o", "0123_user_o")) {
      bad.add(new Put(b(key)).addColumn(b("m"), b("bin"), T0, b("z")));
    }
    TestTables.put(source, bad);

    RekeyOptions strict = options("rk_rej_src", "rk_rej_dst", SALTED);
    assertThatThrownBy(() -> job(strict).execute())
        .isInstanceOf(RekeyException.class)
        // Stopped as soon as the driver saw the rejects, or after the pass: the same refusal.
        .hasMessageContaining("rows could not be mapped, more than --max-rejects 0")
        .hasMessageContaining("nothing was loaded")
        .hasMessageContaining("rejects-*.tsv")
        .hasMessageContaining("dropped the empty target rk_rej_dst it had created");
    assertThat(connection.getAdmin().tableExists(TableName.valueOf("rk_rej_dst"))).isFalse();

    RekeyResult result =
        job(rekeyOptions("rk_rej_src", "rk_rej_dst", SALTED)
                .set(RekeyOptions.MAX_REJECTS, 4L)
                .build())
            .execute();
    assertThat(result.rowsRejected()).isEqualTo(4);
    assertThat(result.cellsRejected()).isEqualTo(4);
    assertThat(result.cellsRead()).isEqualTo(result.cellsWritten() + 4);
    assertThat(result.countsAddUp()).isTrue();
    assertThat(result.verify().matches()).isTrue();
    assertThat(result.rejectExamples()).hasSize(4);
    assertThat(String.join("\n", result.rejectExamples()))
        .contains(
            "NOT_CANONICAL\tfield ts is '0123'",
            "NOT_A_NUMBER\tfield ts is '12a', not a decimal number\t12a_user_o\t3132615f757365725f6f",
            "NOT_A_NUMBER\tfield ts is 'x', not a decimal number\tx_y\t785f79",
            "SOURCE_MISMATCH\tno '_' after field ts (from byte 0)\tgarbage");
  }

  @Test
  void aNonInjectiveLayoutStopsOnCollisionsUnlessMergingIsAllowed() throws Exception {
    TableName source = TableName.valueOf("rk_col_src");
    TestTables.create(source, ColumnFamilyDescriptorBuilder.of("d"));
    TestTables.put(
        source,
        List.of(
            new Put(b(T0 + "_u1_a")).addColumn(b("d"), b("q"), T0, b("1")),
            new Put(b(T0 + "_u1_b")).addColumn(b("d"), b("r"), T0, b("2")),
            new Put(b((T0 + 1) + "_u2_c")).addColumn(b("d"), b("q"), T0, b("3"))));
    String dropsOrder = "salt(4, user) + user + reverse_ts(ts)";
    assertThatThrownBy(() -> job(options("rk_col_src", "rk_col_dst", dropsOrder)).execute())
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("1 new row key(s) come from more than one old row")
        .hasMessageContaining("from old rows '" + T0 + "_u1_a' and '" + T0 + "_u1_b'")
        .hasMessageContaining("--allow-merge")
        .hasMessageContaining("removed the snapshot rekey-rk_col_src-");
    assertThat(connection.getAdmin().tableExists(TableName.valueOf("rk_col_dst"))).isFalse();
    RekeyResult merged =
        job(rekeyOptions("rk_col_src", "rk_col_dst", dropsOrder)
                .set(RekeyOptions.ALLOW_MERGE)
                .build())
            .execute();
    assertThat(merged.cellsWritten()).isEqualTo(3);
    assertThat(TestTables.countCells(TableName.valueOf("rk_col_dst"))).isEqualTo(3);
  }

  @Test
  @EveryCell
  void aNonEmptyTargetIsRefusedAndADryRunTouchesNothing() throws Exception {
    messages("rk_ne_src", 10);
    TableName target = TableName.valueOf("rk_ne_dst");
    TestTables.create(target, richFamily(), ColumnFamilyDescriptorBuilder.of("m"));
    TestTables.put(target, List.of(new Put(b("x")).addColumn(b("m"), b("q"), b("v"))));
    assertThatThrownBy(() -> job(options("rk_ne_src", "rk_ne_dst", SALTED)).execute())
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("the target rk_ne_dst already holds rows")
        .hasMessageContaining("--allow-nonempty");

    RekeyOptions dry =
        rekeyOptions("rk_ne_src", "rk_dry_dst", SALTED).set(RekeyOptions.DRY_RUN).build();
    RekeyResult plan = job(dry).execute();
    assertThat(plan.dryRun()).isTrue();
    assertThat(plan.plan().createTarget()).isTrue();
    assertThat(plan.plan().sampleKeys()).hasSize(10);
    assertThat(plan.plan().splitPoints()).hasSize(7);
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.tableExists(TableName.valueOf("rk_dry_dst"))).isFalse();
      assertThat(admin.listSnapshots()).noneMatch(s -> s.getName().contains("rk_ne_src"));
    }
    Path run = new Path(plan.plan().runDir());
    assertThat(run.getFileSystem(conf).exists(run)).isFalse();
  }

  @Test
  @EveryCell
  void aRerunAfterAFailureBetweenWriteAndLoadLoadsOnce() throws Exception {
    TableName source = messages("rk_resume_src", 200);
    RekeyOptions options = options("rk_resume_src", "rk_resume_dst", SALTED);
    RunManifest written = job(options).run(); // the process "dies" here, before the load
    assertThat(written.state()).isEqualTo(RunManifest.State.WRITTEN);
    assertThat(TestTables.countCells(TableName.valueOf("rk_resume_dst"))).isZero();

    RekeyResult resumed = job(options).execute();
    assertThat(resumed.resumed()).isTrue();
    assertThat(resumed.verify().matches()).isTrue();
    assertThat(actual(TableName.valueOf("rk_resume_dst")))
        .isEqualTo(expected(source, options.mapping()));

    RekeyResult again = job(options).execute(); // and once more: nothing is loaded twice
    assertThat(again.resumed()).isTrue();
    assertThat(again.verify().matches()).isTrue();
    assertThat(TestTables.countCells(TableName.valueOf("rk_resume_dst")))
        .isEqualTo(resumed.cellsWritten());
  }

  @Test
  @EveryCell
  void aTargetRegionSplitBetweenPlanAndLoadIsHandledByTheBulkLoad() throws Exception {
    TableName source = messages("rk_split_src", 300);
    RekeyOptions options =
        options("rk_split_src", "rk_split_dst", "salt(2, user) + user + reverse_ts(ts) + order");
    RekeyJob job = job(options);
    RunManifest written = job.run();
    TableName target = TableName.valueOf("rk_split_dst");
    try (Admin admin = connection.getAdmin()) {
      admin.split(target, new byte[] {0, 'u', 's', 'e', 'r', '5'});
      MiniHBase.util().waitFor(60_000, () -> admin.getRegions(target).size() == 3);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      MiniHBase.util().waitTableAvailable(target, 60_000);
    }
    RunManifest loaded = job.commit(written);
    assertThat(loaded.state()).isEqualTo(RunManifest.State.LOADED);
    VerifyResult verify = job.verify(loaded);
    assertThat(verify.matches()).isTrue();
    assertThat(verify.regions()).isEqualTo(3);
    assertThat(actual(target)).isEqualTo(expected(source, options.mapping()));
  }

  @Test
  @EveryCell
  void verifyNamesTheRegionOfACellChangedBehindItsBack() throws Exception {
    messages("rk_ver_src", 100);
    RekeyOptions options = options("rk_ver_src", "rk_ver_dst", SALTED);
    RekeyResult result = job(options).execute();
    assertThat(result.verify().matches()).isTrue();
    TableName target = TableName.valueOf("rk_ver_dst");
    byte[] row;
    try (Table t = connection.getTable(target);
        ResultScanner s = t.getScanner(new Scan().setLimit(1))) {
      Result first = s.next();
      row = first.getRow();
      Cell cell = first.rawCells()[0];
      // Same cell coordinates and timestamp, another value.
      t.put(
          new Put(row)
              .addColumn(
                  CellUtil.cloneFamily(cell),
                  CellUtil.cloneQualifier(cell),
                  cell.getTimestamp(),
                  b("tampered")));
    }
    List<byte[]> starts = new io.rekey.hbase.TableAdmin(connection).regionStartKeys(target);
    var sc = SparkLocal.context();
    VerifyResult verify =
        new VerifyJob(sc, options.mapping(), starts)
            .compare(
                io.rekey.read.SourceReader.live(
                    sc,
                    conf,
                    TableName.valueOf("rk_ver_src"),
                    io.rekey.read.SourceReader.fullScan(1000)),
                io.rekey.read.SourceReader.live(
                    sc, conf, target, io.rekey.read.SourceReader.fullScan(1000)));
    assertThat(verify.matches()).isFalse();
    assertThat(verify.differingRegions()).isEqualTo(1);
    var diff = verify.differences().get(0);
    assertThat(Bytes.compareTo(row, Bytes.toBytesBinary(diff.start().printable())))
        .isGreaterThanOrEqualTo(0);
    assertThat(diff.sourceCells()).isEqualTo(diff.targetCells());
    assertThat(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7)).contains(diff.region());
  }

  @Test
  void verifyReadsABigEnoughTargetThroughItsOwnSnapshotWhichHoldsWhatTheMemstoreHeld()
      throws Exception {
    messages("rk_vsnap_src", 100);
    RekeyOptions options = options("rk_vsnap_src", "rk_vsnap_dst", SALTED);
    assertThat(job(options).execute().verify().matches()).isTrue();
    TableName target = TableName.valueOf("rk_vsnap_dst");
    long targetCells = TestTables.countCells(target);
    // Changed in the memstore only, never flushed: a cell deleted under a marker, a cell added.
    try (Table t = connection.getTable(target);
        ResultScanner s = t.getScanner(new Scan().setLimit(2))) {
      Result first = s.next();
      Cell cell = first.rawCells()[0];
      t.delete(
          new org.apache.hadoop.hbase.client.Delete(first.getRow())
              .addColumn(
                  CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), cell.getTimestamp()));
      t.put(new Put(s.next().getRow()).addColumn(b("m"), b("added"), 5L, b("x")));
    }
    long readsBefore = regionServerReads(target);
    VerifyResult bySnapshots = verifyTables(options, io.rekey.options.ReadMode.SNAPSHOT, "0");
    // The region servers served none of the target's rows: its own snapshot did.
    assertThat(regionServerReads(target)).isEqualTo(readsBefore);
    // Under the size for a snapshot (64 MiB by default), the target is scanned live.
    VerifyResult small = verifyTables(options, io.rekey.options.ReadMode.SNAPSHOT, null);
    long smallReads = regionServerReads(target) - readsBefore;
    assertThat(smallReads).isGreaterThanOrEqualTo(100);
    VerifyResult live = verifyTables(options, io.rekey.options.ReadMode.LIVE_SCAN, "0");
    assertThat(regionServerReads(target) - readsBefore).isGreaterThanOrEqualTo(smallReads + 100);
    for (VerifyResult v : List.of(bySnapshots, small, live)) {
      assertThat(v.matches()).isFalse();
      assertThat(v.targetCells()).isEqualTo(targetCells); // one cell fewer, one more
      assertThat(v.sourceCells()).isEqualTo(targetCells);
      assertThat(v.differences()).isEqualTo(live.differences());
    }
    assertThat(bySnapshots.differingRegions()).isBetween(1, 2);
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.listSnapshots()).noneMatch(d -> d.getName().contains("rk_vsnap"));
    }
  }

  /**
   * @param snapshotMinBytes {@link TableRead#COMPARED_SNAPSHOT_MIN_BYTES}, or null for its default
   */
  private static VerifyResult verifyTables(
      RekeyOptions options, io.rekey.options.ReadMode read, String snapshotMinBytes) {
    Configuration c = new Configuration(conf);
    if (snapshotMinBytes != null) {
      c.set(TableRead.COMPARED_SNAPSHOT_MIN_BYTES, snapshotMinBytes);
    }
    return VerifyJob.tables(
        SparkLocal.job(connection, c),
        new io.rekey.verify.VerifyOptions(
            options.source(),
            options.target(),
            options.mapping(),
            read,
            1000,
            false,
            null,
            null,
            null,
            false),
        io.rekey.run.RunFiles.staging(c, null));
  }

  /** The read requests the region servers counted on {@code table}'s regions. */
  private static long regionServerReads(TableName table) {
    return MiniHBase.util().getMiniHBaseCluster().getRegions(table).stream()
        .mapToLong(r -> r.getReadRequestsCount())
        .sum();
  }

  /** Every cell including delete markers, as a raw scan sees them, mapped or not. */
  static List<String> rawCells(TableName table, KeyMapping mapping) throws Exception {
    List<String> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(new Scan().readAllVersions().setRaw(true))) {
      for (Result r : s) {
        byte[] row = mapping == null ? r.getRow() : mapping.map(r.getRow(), ColumnValues.NONE);
        for (Cell c : r.rawCells()) {
          out.add(TestTables.line(row, c) + "/" + c.getType());
        }
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * Issue 52, item 5: a table of 16 families, a few cells each, loads. Each target region gets one
   * HFile per family, 16 in all, as many as HBase's default hbase.hstore.blockingStoreFiles; the
   * limit is per store, and so is the pacing's count.
   */
  @Test
  void aTableOfSixteenFamiliesLoadsThoughItsRegionsHoldMoreFilesThanOneStoreMay() throws Exception {
    TableName source = TableName.valueOf("rk_sixteen_src");
    List<org.apache.hadoop.hbase.client.ColumnFamilyDescriptor> families = new ArrayList<>();
    for (int f = 0; f < 16; f++) {
      families.add(ColumnFamilyDescriptorBuilder.of("f" + f));
    }
    TestTables.create(
        source, families.toArray(new org.apache.hadoop.hbase.client.ColumnFamilyDescriptor[0]));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Put p = new Put(b((T0 + i) + "_user" + (i % 5) + "_o" + i));
      for (int f = 0; f < 16; f++) {
        p.addColumn(b("f" + f), b("q"), T0 + i, b("v" + i + "/" + f));
      }
      puts.add(p);
    }
    TestTables.put(source, puts);
    RekeyOptions options = options("rk_sixteen_src", "rk_sixteen_dst", SALTED);
    RekeyResult result = job(options).execute();
    assertThat(result.state()).isEqualTo("LOADED");
    assertThat(result.cellsWritten()).isEqualTo(40 * 16);
    assertThat(result.stored().proven()).isTrue();
    assertThat(result.verify().matches()).isTrue();
    assertThat(actual(TableName.valueOf("rk_sixteen_dst")))
        .isEqualTo(expected(source, options.mapping()));
  }

  @Test
  @EveryCell
  void deleteMarkersAreLeftOutByDefaultAndCopiedWithRaw() throws Exception {
    TableName source = TableName.valueOf("rk_del_src");
    TestTables.create(
        source, ColumnFamilyDescriptorBuilder.newBuilder(b("d")).setMaxVersions(5).build());
    String keep = T0 + "_u1_keep";
    String gone = T0 + "_u2_gone";
    List<Put> puts = new ArrayList<>();
    for (long ts = 1; ts <= 3; ts++) {
      puts.add(new Put(b(keep)).addColumn(b("d"), b("q"), T0 + ts, b("v" + ts)));
      puts.add(new Put(b(gone)).addColumn(b("d"), b("q"), T0 + ts, b("w" + ts)));
    }
    TestTables.put(source, puts);
    try (Table t = connection.getTable(source)) {
      // Hide versions up to ts 2 of one cell, and a whole family of the other row.
      t.delete(
          new org.apache.hadoop.hbase.client.Delete(b(keep)).addColumns(b("d"), b("q"), T0 + 2));
      t.delete(new org.apache.hadoop.hbase.client.Delete(b(gone)).addFamily(b("d")));
    }
    // Default: what a reader sees, nothing else.
    RekeyOptions plain = options("rk_del_src", "rk_del_plain", SALTED);
    RekeyResult visible = job(plain).execute();
    assertThat(visible.cellsRead()).isEqualTo(1);
    assertThat(visible.verify().matches()).isTrue();
    assertThat(actual(TableName.valueOf("rk_del_plain")))
        .isEqualTo(expected(source, plain.mapping()));

    // --raw: markers (and any hidden cells the source still stores) too; the target then masks
    // exactly what the source masks. The snapshot's flush already dropped the hidden puts, so
    // what is left is the visible put and the two markers.
    RekeyOptions raw =
        rekeyOptions("rk_del_src", "rk_del_raw", SALTED).set(RekeyOptions.RAW).build();
    List<String> sourceRaw = rawCells(source, raw.mapping());
    RekeyResult copied = job(raw).execute();
    assertThat(copied.cellsRead()).isEqualTo(sourceRaw.size()).isGreaterThanOrEqualTo(3);
    assertThat(copied.cellsWritten()).isEqualTo(copied.cellsRead());
    assertThat(copied.verify().matches()).isTrue();
    List<String> targetRaw = rawCells(TableName.valueOf("rk_del_raw"), null);
    assertThat(targetRaw).isEqualTo(rawCells(source, raw.mapping()));
    assertThat(String.join("\n", targetRaw)).contains("/DeleteColumn", "/DeleteFamily");
    assertThat(actual(TableName.valueOf("rk_del_raw"))).isEqualTo(expected(source, raw.mapping()));
  }

  @Test
  void theRejectsAndRunFilesLiveInTheRunDirectory() throws Exception {
    messages("rk_files_src", 10);
    RekeyResult result = job(options("rk_files_src", "rk_files_dst", SALTED)).execute();
    Path run = new Path(result.plan().runDir());
    FileSystem fs = run.getFileSystem(conf);
    assertThat(fs.exists(new Path(run, "manifest.json"))).isTrue();
    assertThat(fs.exists(new Path(run, "tmp"))).isFalse();
    assertThat(fs.listStatus(new Path(run, "map"))).isNotEmpty();
  }

  /**
   * A source family with NEW_VERSION_BEHAVIOR, whose visible cells depend on the order of a marker
   * and the Puts around it: a raw copy would put them in one HFile (one sequence id, every Put at
   * or below the marker hidden in the target) and a raw comparison would call that equal. It is
   * refused before anything is made; the default copy takes what a read returns, and matches.
   */
  @Test
  @EveryCell
  void aRawCopyOfAnOrderDependentSourceIsRefusedAndTheDefaultCopyMatches() throws Exception {
    TableName source = TableName.valueOf("rk_nvb_src");
    TestTables.createOrderDependent(source);
    byte[] row = b(T0 + "_u1_nvb");
    TestTables.putDeletePut(source, row, "q", T0 + 5);
    try (Table t = connection.getTable(source)) {
      t.put(new Put(row).addColumn(b("d"), b("q"), T0 + 3, b("old")));
      t.delete(new org.apache.hadoop.hbase.client.Delete(row).addColumns(b("d"), b("q"), T0 + 4));
      t.put(new Put(row).addColumn(b("d"), b("q"), T0 + 2, b("written-after-the-marker")));
    }
    RekeyOptions raw =
        rekeyOptions("rk_nvb_src", "rk_nvb_raw", SALTED).set(RekeyOptions.RAW).build();
    assertThatThrownBy(() -> job(raw).execute())
        .isInstanceOf(io.rekey.options.InvalidOptionException.class)
        .hasMessageContaining("the family d of rk_nvb_src keeps NEW_VERSION_BEHAVIOR");
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.tableExists(TableName.valueOf("rk_nvb_raw"))).isFalse();
    }

    RekeyOptions plain = options("rk_nvb_src", "rk_nvb_plain", SALTED);
    RekeyResult copied = job(plain).execute();
    List<String> expected = expected(source, plain.mapping());
    assertThat(expected)
        .hasSize(2)
        .anyMatch(l -> l.endsWith("=second"))
        .anyMatch(l -> l.endsWith("=written-after-the-marker"));
    assertThat(copied.verify().matches()).isTrue();
    assertThat(actual(TableName.valueOf("rk_nvb_plain"))).isEqualTo(expected);

    // verify --raw on its own would work visibility out from the raw cells: refused too.
    io.rekey.verify.VerifyOptions rawVerify =
        new io.rekey.verify.VerifyOptions(
            source,
            TableName.valueOf("rk_nvb_plain"),
            plain.mapping(),
            io.rekey.options.ReadMode.SNAPSHOT,
            1000,
            true,
            null,
            null,
            null,
            false);
    assertThatThrownBy(
            () ->
                io.rekey.verify.VerifyJob.tables(
                    SparkLocal.job(connection, conf),
                    rawVerify,
                    io.rekey.run.RunFiles.staging(conf, null)))
        .isInstanceOf(io.rekey.options.InvalidOptionException.class)
        .hasMessageStartingWith("--raw is 'true' but the family d of rk_nvb_src");
  }
}
