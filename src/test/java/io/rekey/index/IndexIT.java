package io.rekey.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.cli.ExitCode;
import io.rekey.common.RekeyException;
import io.rekey.hbase.HBaseConnections;
import io.rekey.index.entries.IndexKey;
import io.rekey.options.OptionValues;
import io.rekey.options.ReadMode;
import io.rekey.run.RunState;
import io.rekey.spark.Faults;
import io.rekey.spark.JobContext;
import io.rekey.testing.CliRun;
import io.rekey.testing.EveryCell;
import io.rekey.testing.InJvmFaults;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import io.rekey.write.BulkLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Secondary indexes on a real mini cluster with real Spark: build, update, scrutiny, lookup. */
@ExtendWith(MiniHBase.class)
class IndexIT {
  static final long T0 = 1_767_225_600_000L;
  static final String[] SENDERS = {"alice", "bob", "carol", "dave", "erin"};

  static Connection connection;
  static Configuration conf;

  @BeforeAll
  static void connect() {
    connection = HBaseConnections.open(MiniHBase.settings());
    conf = MiniHBase.settings().toConfiguration();
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * {@code rows} messages {@code msgNNNNN} with m:sender (skewed: alice sends a third), m:subject,
   * m:body, at {@code T0 + i s}; every 25th row has no sender.
   */
  static TableName messages(String prefix, int rows) throws Exception {
    TableName t = MiniHBase.uniqueTable(prefix);
    TestTables.create(t, ColumnFamilyDescriptorBuilder.of("m"));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      puts.add(message(i, T0 + i * 1000L));
    }
    TestTables.put(t, puts);
    return t;
  }

  static Put message(int i, long ts) {
    Put p = new Put(b(String.format("msg%05d", i)));
    if (i % 25 != 24) {
      String sender = i % 3 == 0 ? "alice" : SENDERS[i % SENDERS.length];
      p.addColumn(b("m"), b("sender"), ts, b(sender));
    }
    p.addColumn(b("m"), b("subject"), ts, b("subject " + i));
    p.addColumn(b("m"), b("body"), ts, b("body of message " + i));
    return p;
  }

  static OptionValues definition(TableName source, String index, String... more) {
    OptionValues v =
        OptionValues.empty()
            .with("source", source.getNameAsString())
            .with("column", "m:sender")
            .with("covered", "m:subject")
            .with("index-table", index)
            .with("safety-lag", "0")
            .with("allow-short-lag", "true");
    for (int i = 0; i < more.length; i += 2) {
      v = v.with(more[i], more[i + 1]);
    }
    return v;
  }

  /** An index of the user field of keys {@code USER_N}, in SOURCE_by_user. */
  static OptionValues byUserField(TableName source) {
    return OptionValues.empty()
        .with("source", source.getNameAsString())
        .with("source-key", "text: user + '_' + n:long")
        .with("field", "user")
        .with("index-table", source.getNameAsString() + "_by_user")
        .with("safety-lag", "0")
        .with("allow-short-lag", "true");
  }

  /** The sender index's table name for a messages table. */
  static String bySender(TableName source) {
    return source.getNameAsString() + "_by_sender";
  }

  /** The definition an options set gives, checked. */
  static IndexDefinition parsed(OptionValues v) {
    return IndexDefinition.from(v.validate(IndexDefinition.declaredWithFile()));
  }

  static IndexRunOptions build(OptionValues v) {
    return IndexRunOptions.forBuild(v.validate(IndexRunOptions.declaredForBuild()));
  }

  static IndexRunOptions update(OptionValues v) {
    return IndexRunOptions.forUpdate(v.validate(IndexRunOptions.declaredForUpdate()));
  }

  /** A job on the mini cluster. */
  static JobContext job() {
    return SparkLocal.job(connection, conf);
  }

  static IndexRunResult runBuild(OptionValues v) {
    return runBuild(v, Faults.NONE);
  }

  static IndexRunResult runBuild(OptionValues v, Faults faults) {
    return IndexJob.build(job().withFaults(faults), build(v)).execute();
  }

  static IndexRunResult runUpdate(OptionValues v) {
    return IndexJob.update(job(), update(v)).execute();
  }

  static IndexScrutinyResult scrutiny(OptionValues v, boolean repair) {
    IndexDefinition d = IndexDefinition.from(v.validate(IndexScrutinyOptions.declared()));
    return new IndexScrutinyJob(job(), d, ReadMode.SNAPSHOT, null).execute(repair, 10, false);
  }

  static IndexLookup lookup(OptionValues v) {
    return new IndexLookup(connection, parsed(v));
  }

  /** The source rows whose newest m:sender is {@code sender}, newest first, by a filter scan. */
  static List<String> filterScan(TableName source, String sender) throws Exception {
    SingleColumnValueFilter f =
        new SingleColumnValueFilter(b("m"), b("sender"), CompareOperator.EQUAL, b(sender));
    f.setFilterIfMissing(true);
    List<long[]> tsAndIndex = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    try (Table t = connection.getTable(source);
        ResultScanner s = t.getScanner(new Scan().setFilter(f))) {
      for (Result r : s) {
        keys.add(Bytes.toString(r.getRow()));
        tsAndIndex.add(
            new long[] {
              r.getColumnLatestCell(b("m"), b("sender")).getTimestamp(), keys.size() - 1
            });
      }
    }
    tsAndIndex.sort((x, y) -> Long.compare(y[0], x[0]));
    List<String> out = new ArrayList<>();
    for (long[] t : tsAndIndex) {
      out.add(keys.get((int) t[1]));
    }
    return out;
  }

  static List<String> hitKeys(IndexLookup.Result r) {
    return r.newest().stream().map(IndexLookup.Hit::sourceKey).toList();
  }

  @Test
  @EveryCell
  void aFullBuildGivesEveryRowItsEntryAndLookupsEqualAFilterScanOfTheSource() throws Exception {
    TableName source = messages("ix_full", 500);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    IndexRunResult r = runBuild(def);

    assertThat(r.indexCreated()).isTrue();
    assertThat(r.counts().rowsRead()).isEqualTo(500);
    assertThat(r.counts().rowsWithoutValue()).isEqualTo(20);
    assertThat(r.counts().rowsIndexed()).isEqualTo(480);
    assertThat(r.counts().entries()).isEqualTo(480);
    // Per entry the marker and the covered subject; per indexed row its row record.
    assertThat(r.counts().cells()).isEqualTo(480 * 2 + 480);
    assertThat(r.cellsWritten()).isEqualTo(1440);
    assertThat(r.watermarkAfter()).isGreaterThan(T0);
    assertThat(TestTables.countCells(TableName.valueOf(index))).isEqualTo(1440);

    IndexLookup lookup = lookup(def);
    for (String sender : SENDERS) {
      IndexLookup.Result found = lookup.lookup(sender, null, null, 1000, true);
      List<String> expected = filterScan(source, sender);
      assertThat(expected).isNotEmpty();
      assertThat(found.entries()).isEqualTo(expected.size());
      assertThat(found.sourceRows()).isEqualTo((long) expected.size());
      assertThat(hitKeys(found)).as(sender).containsExactlyElementsOf(expected);
      assertThat(found.newest()).allMatch(h -> h.note() == null);
      assertThat(found.newest().get(0).columns()).containsKey("m:subject");
    }
    // 'al' is a prefix of 'alice' but not a sender: nothing, never alice's entries.
    assertThat(lookup.lookup("al", null, null, 10, false).entries()).isZero();
    // A time range: alice's messages in the first 60 seconds (rows 0, 3, ... 57 but 24, and 5, 10,
    // 20, 25, 35, 40, 50, 55), newest first.
    IndexLookup.Result early = lookup.lookup("alice", T0, T0 + 60_000, 100, false);
    assertThat(early.entries()).isEqualTo(27);
    assertThat(early.newest().get(0).sourceKey()).isEqualTo("msg00057");
    // The index key the definition describes: value, reversed time, source key.
    try (Table t = connection.getTable(TableName.valueOf(index));
        ResultScanner s = t.getScanner(new Scan().setLimit(1))) {
      IndexKey.Entry e = parsed(def).key().decode(s.next().getRow());
      assertThat(Bytes.toString(e.value())).isEqualTo("alice");
    }
  }

  @Test
  @EveryCell
  void aNewIndexTableIsSplitEvenlyFromTheStoreFilesOrWithALiveScanFromTheEntries()
      throws Exception {
    // 6,000 messages from 600 senders, ten each, in key order unrelated to the sender's.
    TableName source = MiniHBase.uniqueTable("ix_even");
    TestTables.create(source, ColumnFamilyDescriptorBuilder.of("m"));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 6_000; i++) {
      puts.add(
          new Put(b(String.format("msg%05d", i)))
              .addColumn(b("m"), b("sender"), T0 + i, b(String.format("user%03d", i * 7 % 600))));
    }
    TestTables.put(source, puts);
    for (String read : List.of("snapshot", "live-scan")) {
      String index = source.getNameAsString() + "_" + read.replace('-', '_');
      OptionValues def = definition(source, index, "regions", "4");
      IndexRunResult r = runBuild(read.equals("live-scan") ? def.with("live-scan", "true") : def);

      assertThat(r.indexRegions())
          .as(read)
          // 6,000 entries and 6,000 row records; a sample of the entries caps at 10,000.
          .startsWith(
              "4 regions, at quantiles of "
                  + (read.equals("snapshot") ? 12000 : 10000)
                  + " index row keys (entries and row records) sampled from ")
          .endsWith(
              read.equals("snapshot")
                  ? "6000 rows of the snapshot's store files"
                  : "the entries of every row read");
      List<byte[]> starts = new ArrayList<>();
      try (Admin admin = connection.getAdmin()) {
        admin.getRegions(TableName.valueOf(index)).forEach(h -> starts.add(h.getStartKey()));
      }
      starts.sort(Bytes.BYTES_COMPARATOR);
      assertThat(starts).hasSize(4);
      int[] perRegion = new int[4];
      try (Table t = connection.getTable(TableName.valueOf(index));
          ResultScanner s = t.getScanner(new Scan())) {
        for (Result row : s) {
          int region = 3;
          while (Bytes.compareTo(row.getRow(), starts.get(region)) < 0) {
            region--;
          }
          perRegion[region]++;
        }
      }
      // Entries (keyed by sender) and row records (by message key): 12,000 rows, even.
      for (int rows : perRegion) {
        assertThat(rows).as("%s: rows per region %s", read, perRegion).isBetween(2_800, 3_200);
      }
    }
  }

  @Test
  @EveryCell
  void anIndexTableInAMissingNamespaceIsRefusedUnlessAskedToCreateIt() throws Exception {
    TableName source = messages("ix_ns_src", 20);
    assertThatThrownBy(() -> runBuild(definition(source, "ix_nons:by_sender")))
        .isInstanceOf(io.rekey.options.InvalidOptionException.class)
        .hasMessage(
            "--index-table is 'ix_nons:by_sender' but is in namespace 'ix_nons', which does not"
                + " exist; check the name, create it ('create_namespace \"ix_nons\"' in the HBase"
                + " shell) or pass --create-namespace");
    try (var admin = connection.getAdmin()) {
      assertThat(admin.listNamespaces()).doesNotContain("ix_nons");
    }
    IndexRunResult built =
        runBuild(definition(source, "ix_nons:by_sender", "create-namespace", "true"));
    assertThat(built.counts().rowsIndexed()).isPositive();
  }

  @Test
  void rowsWhoseEntryCannotBeMadeStopTheBuildBeforeLoadingUnlessAllowed() throws Exception {
    TableName source = messages("ix_rejects", 50);
    TestTables.put(
        source,
        List.of(
            new Put(b("msg99999"))
                .addColumn(b("m"), b("sender"), T0, b("x".repeat(2000)))
                .addColumn(b("m"), b("subject"), T0, b("too long"))));
    String index = bySender(source);

    assertThatThrownBy(() -> runBuild(definition(source, index, "missing-value", "reject")))
        .isInstanceOf(RekeyException.class)
        // Stopped as soon as the driver saw the rejects, or after the pass: the same refusal.
        .hasMessageContaining("rows could not be indexed, more than --max-rejects 0")
        .hasMessageContaining("nothing was loaded")
        .hasMessageContaining("rejects-");
    // Stopped before the index table was made, or after: then the empty table it made is gone.
    try (var admin = connection.getAdmin()) {
      assertThat(admin.tableExists(TableName.valueOf(index))).isFalse();
    }

    IndexRunResult r =
        runBuild(definition(source, index, "missing-value", "reject", "max-rejects", "3"));
    assertThat(r.counts().rowsRejected()).isEqualTo(3);
    assertThat(r.counts().rowsRead()).isEqualTo(51);
    assertThat(r.counts().rowsIndexed()).isEqualTo(48);
    assertThat(r.rejectExamples())
        .anyMatch(
            l -> l.startsWith("KEY_TOO_LONG\t") && l.contains("over the index's limit of 1024"))
        .anyMatch(l -> l.startsWith("FIELD_MISSING\tthe row has no m:sender"));
  }

  @Test
  @EveryCell
  void anUpdateIndexesOnlyTheNewCellsAndMovesTheWatermark() throws Exception {
    TableName source = messages("ix_update", 300);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    IndexRunResult built = runBuild(def);
    MiniHBase.util().flush(source);

    // New cells stamped after the watermark, and a window that ends before now (a later end is
    // refused: see IndexCorrectnessIT).
    long from = built.watermarkAfter();
    List<Put> fresh = new ArrayList<>();
    for (int i = 300; i < 310; i++) {
      fresh.add(message(i, from + i));
    }
    // An old message whose sender changes now: indexed again under the new sender.
    fresh.add(new Put(b("msg00001")).addColumn(b("m"), b("sender"), from + 400, b("zed")));
    TestTables.put(source, fresh);
    long until = from + 1000;
    while (System.currentTimeMillis() <= until) {
      Thread.sleep(50);
    }

    IndexRunResult u = IndexJob.update(job(), update(def.with("until", "" + until))).execute();
    assertThat(u.windowFrom()).isEqualTo(built.watermarkAfter());
    assertThat(u.counts().rowsRead()).as("only rows with cells in the window").isEqualTo(11);
    assertThat(u.counts().entries()).isEqualTo(11);
    assertThat(u.counts().entriesRetired()).isEqualTo(1);
    assertThat(u.watermarkAfter()).isEqualTo(until);
    IndexLookup lookup = lookup(def);
    IndexLookup.Result zed = lookup.lookup("zed", null, null, 10, false);
    assertThat(hitKeys(zed)).containsExactly("msg00001");
    // The covered subject came from the source, though the window held only the new sender.
    assertThat(zed.newest().get(0).columns()).containsEntry("m:subject", "subject 1");
    try (Table t = connection.getTable(TableName.valueOf(index));
        ResultScanner s = t.getScanner(new Scan())) {
      int withSubject = 0;
      for (Result r : s) {
        if (r.getValue(b("i"), b("m:subject")) != null) {
          withSubject++;
        }
      }
      // msg00001's entry under its old sender was retired by the update itself.
      assertThat(withSubject).isEqualTo(288 + 11 - 1);
    }
    // Running the same window again is harmless, and a run with nothing new does nothing.
    IndexRunResult again = IndexJob.update(job(), update(def.with("until", "" + until))).execute();
    assertThat(again.nothingToDo()).isTrue();
    assertThat(
            new RunState(
                    connection, TableName.valueOf("rekey_index_state"), TableName.valueOf(index))
                .history(10))
        .hasSize(3)
        .satisfies(
            h -> {
              assertThat(h.get(0)).contains("\"outcome\":\"nothing to do\"");
              assertThat(h.get(1))
                  .contains("\"run\":\"update\"", "\"outcome\":\"done\"")
                  .contains("\"windowFrom\":" + from, "\"windowTo\":" + until)
                  .contains("\"rowsRead\":11", "\"entriesWritten\":11", "\"entriesDeleted\":1");
              assertThat(h.get(2)).contains("\"run\":\"build\"", "\"rowsRead\":300");
            });
  }

  @Test
  void aFailedLoadLeavesTheWatermarkWhereItWasAndTheRerunCompletes() throws Exception {
    TableName source = messages("ix_fail", 100);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    long watermark = runBuild(def).watermarkAfter();
    long now = watermark + 1;
    TestTables.put(source, List.of(message(100, now), message(101, now + 1)));
    // The failure falls between writing the HFiles and loading them.
    OptionValues window = def.with("until", "" + (now + 100)).with("write", "hfiles");
    while (System.currentTimeMillis() <= now + 100) {
      Thread.sleep(20);
    }

    Configuration failing = new Configuration(conf);
    failing.setInt(BulkLoader.ATTEMPTS_KEY, 1);
    // The index's regions refuse bulk loads (reads and Puts go on: the update reads row records).
    TableName indexTable = TableName.valueOf(index);
    try (Admin admin = connection.getAdmin()) {
      TableDescriptor plain = admin.getDescriptor(indexTable);
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(plain)
              .setCoprocessor(RefusesBulkLoads.class.getName())
              .build());
      assertThatThrownBy(
              () -> IndexJob.update(SparkLocal.job(connection, failing), update(window)).execute())
          .isInstanceOf(RekeyException.class)
          .hasMessageContaining("bulk load");
      admin.modifyTable(plain);
    }
    RunState state =
        new RunState(connection, TableName.valueOf("rekey_index_state"), TableName.valueOf(index));
    assertThat(state.watermark()).hasValue(watermark);
    assertThat(state.history(1).get(0))
        .contains("\"run\":\"update\"", "\"outcome\":\"failed\"", "bulk load")
        .contains("\"watermarkAfter\":" + watermark);

    IndexRunResult rerun = IndexJob.update(job(), update(window)).execute();
    assertThat(rerun.windowFrom()).isEqualTo(watermark);
    assertThat(rerun.counts().entries()).isEqualTo(2);
    assertThat(state.watermark()).hasValue(now + 100);
    assertThat(lookup(def).lookup("alice", now, null, 10, false).entries()).isEqualTo(1);
  }

  /**
   * Issue 52, item 6: a build that never completed is not served. The index's table is dropped and
   * built again, and the load fails (for real, on the driver, before the bulk load): the watermark
   * of the old table no longer vouches for the new one, and a lookup refuses in one line.
   */
  @Test
  @EveryCell
  void aLookupRefusesAnIndexWhoseBuildNeverCompleted() throws Exception {
    TableName source = messages("ix_unfinished", 60);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    runBuild(def);
    assertThat(lookup(def).lookup("alice", null, null, 10, false).entries()).isPositive();
    try (Admin admin = connection.getAdmin()) {
      admin.disableTable(TableName.valueOf(index));
      admin.deleteTable(TableName.valueOf(index));
    }
    Faults failingLoad =
        InJvmFaults.of(
            (point, partition, attempt) -> {
              if (point == Faults.Point.BEFORE_LOAD) {
                throw new java.io.IOException("injected: the load fails");
              }
            });
    // One attempt: every retry would meet the same injected failure after its wait.
    Configuration once = new Configuration(conf);
    once.setInt(BulkLoader.ATTEMPTS_KEY, 1);
    try {
      assertThatThrownBy(
              () ->
                  IndexJob.build(
                          SparkLocal.job(connection, once).withFaults(failingLoad), build(def))
                      .execute())
          .isInstanceOf(RekeyException.class);
    } finally {
      InJvmFaults.clear();
    }
    RunState state =
        new RunState(connection, TableName.valueOf("rekey_index_state"), TableName.valueOf(index));
    assertThat(state.watermark()).isEmpty();
    assertThatThrownBy(() -> lookup(def).lookup("alice", null, null, 10, false))
        .isInstanceOf(RekeyException.class)
        .hasMessageStartingWith("the index " + index + " has no completed build")
        .hasMessageContaining("Run 'index build' again");

    runBuild(def);
    assertThat(lookup(def).lookup("alice", null, null, 10, false).entries())
        .isEqualTo(filterScan(source, "alice").size());
  }

  /** A coprocessor that fails every bulk load into its table's regions, as a broken load would. */
  public static final class RefusesBulkLoads implements RegionCoprocessor, RegionObserver {
    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public void preBulkLoadHFile(
        ObserverContext<RegionCoprocessorEnvironment> ctx, List<Pair<byte[], String>> familyPaths)
        throws IOException {
      throw new DoNotRetryIOException("bulk loads into this table are refused by the test");
    }
  }

  @Test
  @EveryCell
  void ofTwoRunsOfOneIndexStartingTogetherOneIsRefused() throws Exception {
    TableName index = MiniHBase.uniqueTable("ix_lock");
    TableName stateTable = TableName.valueOf("rekey_index_state");
    int runs = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(runs);
    List<Future<io.rekey.run.RunLock>> taken = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Callable<io.rekey.run.RunLock> take =
          () -> {
            start.await();
            try {
              return new RunState(connection, stateTable, index).lock("index update", null, false);
            } catch (io.rekey.run.RunLockedException e) {
              return null;
            }
          };
      taken.add(pool.submit(take));
    }
    start.countDown();
    List<io.rekey.run.RunLock> held = new ArrayList<>();
    for (Future<io.rekey.run.RunLock> f : taken) {
      if (f.get() != null) {
        held.add(f.get());
      }
    }
    pool.shutdown();
    assertThat(held).hasSize(1);

    // The CLI says who holds it and exits 3, so a scheduler can retry later.
    TableName source = messages("ix_lock_src", 10);
    CliRun refused =
        CliRun.of(
            "index",
            "update",
            "--zk",
            MiniHBase.zkQuorum(),
            "--hbase-set",
            "hbase.rootdir=" + conf.get("hbase.rootdir"),
            "--hbase-set",
            "fs.defaultFS=" + conf.get("fs.defaultFS"),
            "--source",
            source.getNameAsString(),
            "--column",
            "m:sender",
            "--index-table",
            index.getNameAsString());
    assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCode.BUSY);
    assertThat(refused.err())
        .contains("is locked by another run (index update by ")
        .contains("--break-lock");
    held.get(0).close();
    assertThat(new RunState(connection, stateTable, index).lock("index build", null, false))
        .isNotNull();
  }

  @Test
  @EveryCell
  void scrutinyFindsMissingInvalidAndOrphanEntriesAndRepairFixesThem() throws Exception {
    TableName source = messages("ix_scrutiny", 200);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    runBuild(def);
    assertThat(scrutiny(def, false).clean()).isTrue();

    IndexDefinition d = parsed(def);
    try (Table ix = connection.getTable(TableName.valueOf(index));
        Table src = connection.getTable(source)) {
      // Missing: an entry deleted behind the index's back (msg00003, alice).
      ix.delete(new Delete(d.key().entryKey(b("msg00003"), null, b("alice"), T0 + 3000)));
      // Invalid: msg00004's sender changes (older than the watermark, so not pending), leaving
      // its old entry wrong and its new one missing.
      src.put(new Put(b("msg00004")).addColumn(b("m"), b("sender"), T0 + 4001, b("mallory")));
      // Orphan: msg00005 is deleted from the source.
      src.delete(new Delete(b("msg00005")));
    }
    IndexScrutinyResult found = scrutiny(def, false);
    assertThat(found.missing()).isEqualTo(2);
    assertThat(found.invalid()).isEqualTo(1);
    assertThat(found.orphan()).isEqualTo(1);
    assertThat(found.valid()).isEqualTo(192 - 1 - 1 - 1);
    assertThat(found.samples().get("missing")).anyMatch(s -> s.contains("msg00003"));
    assertThat(found.samples().get("invalid").get(0)).contains("msg00004").contains("'erin'");
    assertThat(found.samples().get("orphan").get(0)).contains("msg00005");
    assertThat(found.clean()).isFalse();

    IndexScrutinyResult repaired = scrutiny(def, true);
    assertThat(repaired.written()).isEqualTo(2);
    assertThat(repaired.deleted()).isEqualTo(2);
    IndexScrutinyResult after = scrutiny(def, false);
    assertThat(after.clean()).as(after.toString()).isTrue();
    assertThat(after.valid()).isEqualTo(191);
    IndexLookup lookup = lookup(def);
    assertThat(hitKeys(lookup.lookup("mallory", null, null, 10, false)))
        .containsExactly("msg00004");
    for (String sender : SENDERS) {
      assertThat(hitKeys(lookup.lookup(sender, null, null, 1000, false)))
          .containsExactlyElementsOf(filterScan(source, sender));
    }
  }

  @Test
  @EveryCell
  void aSaltedIndexLooksUpExactlyTheUnsaltedAnswer() throws Exception {
    TableName source = messages("ix_salted", 400);
    OptionValues plain = definition(source, source.getNameAsString() + "_plain");
    OptionValues salted =
        definition(
            source,
            source.getNameAsString() + "_salted",
            "index-key",
            "salt(4) + value + reverse_ts(ts) + key");
    runBuild(plain);
    IndexRunResult s = runBuild(salted);
    try (Admin admin = connection.getAdmin()) {
      assertThat(admin.getRegions(TableName.valueOf(s.index()))).hasSize(4);
    }
    for (String sender : SENDERS) {
      IndexLookup.Result a = lookup(plain).lookup(sender, null, null, 1000, false);
      IndexLookup.Result b = lookup(salted).lookup(sender, null, null, 1000, false);
      assertThat(b.ranges()).isEqualTo(4);
      assertThat(b.entries()).isEqualTo(a.entries());
      assertThat(hitKeys(b)).as(sender).containsExactlyElementsOf(hitKeys(a));
      IndexLookup.Result a5 = lookup(plain).lookup(sender, T0 + 100_000, T0 + 200_000, 5, false);
      IndexLookup.Result b5 = lookup(salted).lookup(sender, T0 + 100_000, T0 + 200_000, 5, false);
      assertThat(hitKeys(b5)).containsExactlyElementsOf(hitKeys(a5));
      assertThat(b5.entries()).isEqualTo(a5.entries());
    }
  }

  @Test
  void anIndexOnAKeyFieldAndAnIndexOfEveryVersion() throws Exception {
    TableName source = MiniHBase.uniqueTable("ix_field");
    TestTables.create(
        source, ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setMaxVersions(3).build());
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String user = SENDERS[i % SENDERS.length];
      Put p = new Put(b(user + "_" + i));
      p.addColumn(b("m"), b("subject"), T0 + i, b("s" + i));
      // Every third row's sender changed once: two versions of m:sender.
      p.addColumn(b("m"), b("sender"), T0 + i, b(user));
      if (i % 3 == 0) {
        p.addColumn(b("m"), b("sender"), T0 + 1000 + i, b("zed"));
      }
      puts.add(p);
    }
    TestTables.put(source, puts);

    // The value is the key's user field; its entries carry no time (IndexEntries.FIELD_TS).
    OptionValues byField = byUserField(source);
    IndexRunResult f = runBuild(byField);
    assertThat(f.counts().entries()).isEqualTo(60);
    IndexLookup.Result bob = lookup(byField).lookup("bob", null, null, 100, false);
    assertThat(bob.entries()).isEqualTo(12);
    // A value's entries come in source key order.
    assertThat(hitKeys(bob)).startsWith("bob_1", "bob_11", "bob_16");

    // One entry per version of m:sender: 60 rows, 20 with two versions.
    OptionValues everyVersion =
        definition(source, source.getNameAsString() + "_versions", "all-versions", "true");
    IndexRunResult v = runBuild(everyVersion);
    assertThat(v.counts().rowsIndexed()).isEqualTo(60);
    assertThat(v.counts().entries()).isEqualTo(80);
    assertThat(lookup(everyVersion).lookup("zed", null, null, 100, false).entries()).isEqualTo(20);
    // The newest-only index sees zed, not the senders they replaced.
    OptionValues newest = definition(source, source.getNameAsString() + "_newest");
    runBuild(newest);
    assertThat(lookup(newest).lookup("alice", null, null, 100, false).entries()).isEqualTo(8);
    assertThat(lookup(everyVersion).lookup("alice", null, null, 100, false).entries())
        .isEqualTo(12);
  }

  @Test
  @EveryCell
  void badDefinitionsAreRefusedBeforeAnyWorkNamingTheOptionAndTheFix() {
    CliRun noValue = CliRun.of("index", "build", "--source", "a:b", "--index-table", "a:c");
    assertThat(noValue.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(noValue.err()).contains("give --column FAMILY:QUALIFIER");
    CliRun noKey =
        CliRun.of(
            "index",
            "build",
            "--source",
            "a:b",
            "--index-table",
            "a:c",
            "--column",
            "m:s",
            "--index-key",
            "value + reverse_ts(ts)");
    assertThat(noKey.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(noKey.err()).contains("--index-key is 'value + reverse_ts(ts)'").contains("'key'");
    CliRun badColumn =
        CliRun.of(
            "index",
            "lookup",
            "--source",
            "a:b",
            "--index-table",
            "a:c",
            "--column",
            "sender",
            "--value",
            "x");
    assertThat(badColumn.err()).contains("--column is 'sender' but must be FAMILY:QUALIFIER");
    CliRun missingDef = CliRun.of("index", "scrutiny", "--def", "no/such/file.properties");
    assertThat(missingDef.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(missingDef.err())
        .contains("--def is 'no/such/file.properties' but that file does not exist");
    CliRun unknown = CliRun.of("index", "rebuild");
    assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.err()).contains("unknown command 'index rebuild'");
    assertThat(CliRun.of("index").err())
        .contains("build")
        .contains("update")
        .contains("scrutiny")
        .contains("lookup");
  }
}
