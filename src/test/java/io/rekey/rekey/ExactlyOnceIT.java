package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.SALTED;
import static io.rekey.rekey.RekeyIT.actual;
import static io.rekey.rekey.RekeyIT.conf;
import static io.rekey.rekey.RekeyIT.connection;
import static io.rekey.rekey.RekeyIT.expected;
import static io.rekey.rekey.RekeyIT.job;
import static io.rekey.rekey.RekeyIT.messages;
import static io.rekey.rekey.RekeyIT.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.spark.Faults;
import io.rekey.spark.JobContext;
import io.rekey.testing.InJvmFaults;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.RefuseBulkLoads;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import io.rekey.write.BulkLoader;
import io.rekey.write.Ledger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Every cell once, with real faults: writer task attempts that die halfway through a file (Spark
 * retries them), a bulk load that a region server refuses after HBase split a file and loaded part
 * of it. Each test ends with the target equal to the source cell by cell and the cells stored,
 * counted from the target's store files, equal to the cells written.
 */
@LongTier
class ExactlyOnceIT extends OnMiniCluster {

  @Test
  void writerAttemptsThatDieMidFileAreRetriedAndOnlyTheAcceptedAttemptsFilesAreLoaded()
      throws Exception {
    TableName source = messages("eo_retry_src", 400);
    RekeyOptions options = options("eo_retry_src", "eo_retry_dst", SALTED);
    ConcurrentLinkedQueue<String> attempts = new ConcurrentLinkedQueue<>();
    Faults faults =
        InJvmFaults.of(
            (point, partition, attempt) -> {
              if (point == Faults.Point.WRITER_MIDFILE) {
                attempts.add(partition + "/" + attempt);
                // The first attempt of every other partition dies with its file half written.
                if (attempt == 0 && partition % 2 == 0) {
                  throw new IllegalStateException("injected: executor lost mid-file");
                }
              }
              if (point == Faults.Point.WRITER_FINISHED && attempt == 0 && partition == 1) {
                // This one dies with its files complete, as a speculative copy that lost would:
                // the files are whole, and still not the partition's.
                throw new IllegalStateException("injected: executor lost after writing");
              }
            });
    RekeyResult result = job(options, faults).execute();

    assertThat(attempts).contains("0/0", "0/1", "1/0", "1/1", "2/0", "2/1");
    assertThat(result.state()).isEqualTo("LOADED");
    assertThat(result.cellsWritten()).isEqualTo(result.cellsRead());
    assertThat(result.stored().proven()).isTrue();
    assertThat(result.stored().stored()).isEqualTo(result.cellsWritten());
    assertThat(result.verify().matches()).isTrue();
    assertThat(actual(TableName.valueOf("eo_retry_dst")))
        .isEqualTo(expected(source, options.mapping()));
    // The dead attempts' half files went with the attempt directories; the rejects glob and the
    // counts hold one attempt per partition.
    Path run = new Path(result.plan().runDir());
    FileSystem fs = run.getFileSystem(conf);
    assertThat(fs.exists(new Path(run, "tmp"))).isFalse();
    Set<String> partitions = new java.util.HashSet<>();
    FileStatus[] stats = fs.listStatus(new Path(run, "map"), p -> p.getName().startsWith("stats-"));
    for (FileStatus f : stats) {
      partitions.add(f.getPath().getName().split("\\.")[0]);
    }
    assertThat(stats).hasSize(partitions.size());
  }

  @Test
  void aLoadRefusedAfterHBaseLoadedHalfOfASplitFileLoadsOnlyTheOtherHalfOnTheRetry()
      throws Exception {
    TableName source = messages("eo_split_src", 300);
    RekeyOptions options =
        options("eo_split_src", "eo_split_dst", "salt(2, user) + user + reverse_ts(ts) + order");
    // HBase's bulk-load client retries a refused region with back-off: keep that short here.
    org.apache.hadoop.conf.Configuration quick = new org.apache.hadoop.conf.Configuration(conf);
    quick.setInt("hbase.client.retries.number", 3);
    quick.setLong("hbase.client.pause", 50);
    List<Integer> loadAttempts = new ArrayList<>();
    JobContext context =
        SparkLocal.job(connection, quick)
            .withFaults(
                InJvmFaults.of(
                    (point, partition, attempt) -> {
                      if (point == Faults.Point.BEFORE_LOAD) {
                        loadAttempts.add(attempt);
                        if (attempt > 1) {
                          RefuseBulkLoads.refusals.set(0);
                        }
                      }
                    }));
    RekeyPlanner.Planned planned = RekeyJob.plan(context, options);
    RekeyJob job = new RekeyJob(context, options, planned);
    RunManifest written = job.run();
    TableName target = TableName.valueOf("eo_split_dst");
    byte[] splitKey = {0, 'u', 's', 'e', 'r', '5'};
    try (Admin admin = connection.getAdmin()) {
      // The target splits between write and load, so HBase must split bucket 0's file in two...
      admin.split(target, splitKey);
      MiniHBase.util().waitFor(60_000, () -> admin.getRegions(target).size() == 3);
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      // ...and the new upper region refuses the first load: the lower half is loaded, not the rest.
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(target))
              .setCoprocessor(RefuseBulkLoads.class.getName())
              .build());
      MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
      MiniHBase.util().waitTableAvailable(target, 60_000);
    }
    // HBase's own bulk-load client retries a refused region several times within one load: the
    // region refuses until that load has given up, and lets the next attempt in.
    RefuseBulkLoads.regionStart = splitKey;
    RefuseBulkLoads.refused.set(0);
    RefuseBulkLoads.refusals.set(Integer.MAX_VALUE);
    RunManifest loaded = job.commit(written);

    assertThat(RefuseBulkLoads.refused.get()).isPositive();
    assertThat(loadAttempts).containsExactly(1, 2);
    Ledger ledger = Ledger.read(conf, new Path(planned.plan().runDir()));
    assertThat(ledger.entries())
        .anyMatch(e -> e.note() != null && e.note().contains("loaded in part"));
    assertThat(ledger.pending()).isEmpty();
    assertThat(loaded.stored().proven()).isTrue();
    assertThat(loaded.stored().stored()).isEqualTo(written.cellsWritten());
    assertThat(job.verify(loaded).matches()).isTrue();
    assertThat(actual(target)).isEqualTo(expected(source, options.mapping()));
  }

  @Test
  void theStoredCellCheckSeesAFileLoadedTwiceWhereAScanSeesNothing() throws Exception {
    messages("eo_dup_src", 100);
    RekeyOptions options =
        RekeyIT.rekeyOptions("eo_dup_src", "eo_dup_dst", SALTED)
            .set(RekeyOptions.NO_VERIFY)
            .build();
    RekeyResult result = job(options).execute();
    TableName target = TableName.valueOf("eo_dup_dst");
    long cells = TestTables.countCells(target);
    Ledger ledger = Ledger.read(conf, new Path(result.plan().runDir()));
    assertThat(BulkLoader.storedCells(conf, target, ledger, Set.of("d", "m")).proven()).isTrue();

    // Load a copy of one of the run's store files again, as a double load would.
    FileSystem fs = FileSystem.get(conf);
    Path tableDir = new Path(conf.get("hbase.rootdir"), "data/default/eo_dup_dst");
    Path storeFile = null;
    for (FileStatus region : fs.listStatus(tableDir)) {
      Path family = new Path(region.getPath(), "d");
      if (region.isDirectory() && fs.exists(family) && fs.listStatus(family).length > 0) {
        storeFile = fs.listStatus(family)[0].getPath();
        break;
      }
    }
    assertThat(storeFile).isNotNull();
    Path again = new Path("/eo-dup-again/d/copy");
    FileUtil.copy(fs, storeFile, fs, again, false, conf);
    Map<byte[], List<Path>> family = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    family.put(Bytes.toBytes("d"), new ArrayList<>(List.of(again)));
    BulkLoadHFiles.create(conf).bulkLoad(target, family);

    // A scan returns one cell for two identical ones; the store files hold both.
    assertThat(TestTables.countCells(target)).isEqualTo(cells);
    assertThatThrownBy(() -> BulkLoader.storedCells(conf, target, ledger, Set.of("d", "m")))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("it was loaded more than once");
  }
}
