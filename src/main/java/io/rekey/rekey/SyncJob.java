package io.rekey.rekey;

import io.rekey.common.FindingsFound;
import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.PurgedDeletes;
import io.rekey.hbase.RegionActivity;
import io.rekey.hbase.ServerClocks;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.hbase.TableAdmin;
import io.rekey.read.SourceReader;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunRecord;
import io.rekey.run.RunState;
import io.rekey.spark.JobContext;
import io.rekey.spark.RejectLimit;
import io.rekey.spark.SparkCores;
import io.rekey.verify.MergedKeys;
import io.rekey.verify.MigrationDefinition;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import io.rekey.verify.VerifyResult;
import io.rekey.verify.WritersStopped;
import io.rekey.write.BulkLoader;
import io.rekey.write.Pressure;
import io.rekey.write.PutWriterStage;
import io.rekey.write.ShuffleCell;
import io.rekey.write.StoredCells;
import io.rekey.write.WriteEngine;
import io.rekey.write.WriteStats;
import io.rekey.write.WriterTasks;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catches a live migration's target up with what was written to the source since the copy: under
 * the target's run lock, it reads the source raw in time windows from the watermark (which {@code
 * rekey} recorded: its snapshot's time minus the safety lag) to now minus the lag, maps each row's
 * cells through the layout ({@link WindowMapping}: Puts and every kind of delete marker, rows whose
 * key-bound column changed moved whole), writes them (Puts and Deletes, or HFiles and a bulk load),
 * and moves the watermark after each window. A failed window leaves the watermark at its start, and
 * running a window again writes the same cells again: harmless. {@code --final} proves the writers
 * stopped (the source regions' write counts unchanged from its start to after its last comparison,
 * {@link WritersStopped}, whatever timestamps a writer stamps; and, first and cheapest, no cell
 * stamped after the stop, {@link WritesAfterStop}), copies up to then, verifies every cell below
 * that time and, with {@code --repair}, repairs what differs ({@link RepairJob}) and verifies
 * again. Every sync refuses a mapping other than the copy's and a region server clock too far from
 * the driver's, and warns of delete markers a compaction may purge ({@link PurgedDeletes}).
 *
 * <p>Where changes come from (a raw time-range scan here; a replication endpoint could feed the
 * same mapping later) is {@link #window}'s read; how they are mapped and written does not depend on
 * it.
 */
public final class SyncJob {
  private static final Logger LOG = LoggerFactory.getLogger(SyncJob.class);

  /** With {@code --write auto}, a window of at most this many cells is written as Puts. */
  public static final long AUTO_PUT_CELLS = 100_000;

  private static final int REJECT_EXAMPLES = 5;

  private final JobContext job;
  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final SyncOptions options;
  private final RekeyOptions rekey;
  private final RunState state;
  private Runnable afterLastComparison = () -> {};

  public SyncJob(JobContext job, SyncOptions options) {
    this.job = job;
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.options = options;
    this.rekey = options.rekey();
    this.state = new RunState(connection, TableName.valueOf(rekey.stateTable()), rekey.target());
  }

  /**
   * Runs {@code action} right after a final sync's last comparison, before its last look at the
   * source: the one point where a write would escape every comparison (tests inject one there).
   */
  SyncJob afterLastComparison(Runnable action) {
    this.afterLastComparison = action;
    return this;
  }

  /**
   * Runs the sync under the target's lock and records it in the run history.
   *
   * @throws io.rekey.run.RunLockedException when another run writing the target holds the lock
   * @throws RekeyException when a window fails: the watermark stays at that window's start
   */
  public SyncResult execute() {
    RunFiles.checkUsable(conf, staging(), sc.master());
    long started = System.currentTimeMillis();
    String application = sc.sc().applicationId();
    String run = options.finalRun() ? "sync --final" : "sync";
    try (RunLock lock =
        state.lock(
            "rekey " + run + " " + rekey.source() + " -> " + rekey.target(),
            application,
            rekey.breakLock())) {
      OptionalLong found = state.watermark();
      Long before = found.isPresent() ? found.getAsLong() : null;
      long end = options.end() != null ? options.end() : started - rekey.safetyLagMillis();
      RunRecord.Start start = new RunRecord.Start(run, started, application, before, end, before);
      return state.recorded(
          started,
          () -> sync(started, before, end),
          r -> Json.toJsonLine(SyncRunRecord.of(start, r)),
          message -> Json.toJsonLine(SyncRunRecord.failed(start, message)));
    }
  }

  private SyncResult sync(long started, Long before, long end) {
    long t0 = System.nanoTime();
    if (before == null) {
      throw new RekeyException(
          "there is no sync watermark for "
              + rekey.target()
              + " in "
              + rekey.stateTable()
              + ": 'rekey' records it when it copies "
              + rekey.source()
              + " (the copy's start minus the safety lag). Run 'rekey' with the same options"
              + " first");
    }
    MigrationDefinition.of(rekey.source(), rekey.mapping(), rekey.raw())
        .requireSame(
            state.pinnedDefinition(),
            rekey.target().getNameAsString(),
            options.finalRun() ? "rekey sync --final" : "rekey sync");
    TableAdmin admin = new TableAdmin(connection);
    List<String> warnings =
        PurgedDeletes.warnings(
            admin.descriptor(rekey.source(), "source"), conf, null, PurgedDeletes.Reader.SYNC);
    warnings.forEach(w -> LOG.warn("rekey sync: {}", w));
    TargetFamilies.require(
        admin.descriptor(rekey.source(), "source"),
        admin.descriptor(rekey.target(), "target"),
        rekey.mapping());
    long skew =
        state.requireClocksWithin(
            rekey.safetyLagMillis() / 3,
            ServerClocks.waitMillis(conf),
            rekey.source(),
            rekey.target());
    // Read first: any write from here on, whatever its timestamp, changes a region's count.
    List<RegionActivity> stopped =
        options.finalRun() ? RegionActivity.of(connection, rekey.source()) : List.of();
    if (options.finalRun()) {
      // Before anything is written: a final window with writers still writing proves nothing.
      WritesAfterStop early = WritesAfterStop.find(sc, conf, rekey.source(), end);
      if (early.rows() > 0) {
        throw new FindingsFound(early.refusal(rekey.source().getNameAsString(), end));
      }
    }
    if (!options.finalRun() && !rekey.allowMerge()) {
      requireNoMergedRows(end);
    }
    List<SyncResult.Window> windows = new ArrayList<>();
    SyncStats totals = SyncStats.ZERO;
    String rejects = null;
    List<String> examples = new ArrayList<>();
    long watermark = before;
    while (watermark < end) {
      long to = Math.min(end, watermark + options.maxWindowMillis());
      SyncResult.Window w = window(watermark, to, windows.size() + 1);
      windows.add(w);
      totals = totals.plus(w.stats());
      if (w.stats().rowsRejected() > 0) {
        rejects = RunFiles.rejectsGlob(runDir()) + " (of the last window with rejects)";
        examples = RunFiles.rejectExamples(conf, runDir(), REJECT_EXAMPLES);
      }
      state.moveWatermark(to);
      watermark = to;
      LOG.info(
          "rekey sync: window {} [{}, {}) done: {} rows, {} cells, {} deletes, {} moved, {}"
              + " rejected; watermark now {}",
          windows.size(),
          Instant.ofEpochMilli(w.from()),
          Instant.ofEpochMilli(w.to()),
          w.stats().rowsRead(),
          w.stats().cellsRead(),
          w.stats().deletesRead(),
          w.stats().rowsMoved(),
          w.stats().rowsRejected(),
          Instant.ofEpochMilli(to));
    }
    VerifyResult verify = null;
    RepairResult repair = null;
    WritesAfterStop late = WritesAfterStop.NONE;
    String changed = null;
    if (options.finalRun()) {
      VerifyOptions check =
          new VerifyOptions(
              rekey.source(),
              rekey.target(),
              rekey.mapping(),
              rekey.read(),
              rekey.batch(),
              rekey.raw(),
              end,
              rekey.stateTable(),
              options.acceptUnmapped(),
              rekey.allowMerge());
      sc.setJobGroup(
          "verify",
          "rekey sync --final: verify "
              + rekey.source()
              + " vs "
              + rekey.target()
              + " below "
              + end,
          false);
      try {
        verify = VerifyJob.tables(job, check, staging());
      } finally {
        sc.clearJobGroup();
      }
      if (!verify.matches() && options.repair()) {
        repair =
            new RepairJob(job, new RepairOptions(rekey, end, options.acceptUnmapped()))
                .repairHoldingLock(staging());
      }
      afterLastComparison.run();
      late = WritesAfterStop.find(sc, conf, rekey.source(), end);
      changed =
          WritersStopped.change(
              rekey.source().getNameAsString(),
              stopped,
              RegionActivity.of(connection, rekey.source()));
    }
    long after = Math.max(watermark, before);
    return new SyncResult(
        rekey.source().getNameAsString(),
        rekey.target().getNameAsString(),
        options.finalRun(),
        before,
        end,
        after,
        System.currentTimeMillis() - after,
        windows.isEmpty(),
        windows,
        totals,
        rejects,
        examples,
        verify,
        repair,
        late.rows(),
        late.first(),
        changed,
        options.acceptUnmapped(),
        rekey.allowMerge(),
        skew,
        warnings,
        windows.stream()
            .map(SyncResult.Window::pressure)
            .reduce(repair == null ? Pressure.NONE : repair.pressure(), Pressure::plus),
        seconds(t0));
  }

  /** Reads, maps and writes one window; the watermark is the caller's to move. */
  /**
   * Refuses, before anything is written, a sync whose layout is not injective when two source rows
   * map to one target key as of {@code end}: the copy refuses them, and the window would merge
   * them. One pass over the source's keys and bound columns, for such layouts only; the final sync
   * counts them beside its verdict instead.
   */
  private void requireNoMergedRows(long end) {
    MergedKeys merged = MergedKeys.inSource(sc, conf, rekey.source(), rekey.mapping(), end);
    if (merged.keys() > 0) {
      throw new RekeyException(
          merged.keys()
              + " target key(s) would hold the cells of two or more source rows, because the"
              + " target key is not injective ("
              + rekey.mapping().injectivity().explanation()
              + "); nothing was written and the watermark stays. Examples: "
              + String.join(", ", merged.examples())
              + ". Keep the lost fields in the target key, or pass --allow-merge to merge them");
    }
  }

  private SyncResult.Window window(long from, long to, int number) {
    long t0 = System.nanoTime();
    Path runDir = runDir();
    try {
      runDir.getFileSystem(conf).delete(runDir, true);
    } catch (IOException e) {
      throw new RekeyException("cannot use the run directory " + runDir + ": " + e.getMessage(), e);
    }
    WindowMapping mapping = new WindowMapping(rekey.mapping(), from, to);
    JavaPairRDD<ImmutableBytesWritable, Result> rows = read(from, to, mapping.needsHistory());
    int inputPartitions = rows.getNumPartitions();
    ShippedConfiguration shipped = new ShippedConfiguration(conf);
    LongAccumulator rejectedSoFar = sc.sc().longAccumulator("rekey sync rows rejected");
    JavaPairRDD<byte[], byte[]> mapped =
        JavaPairRDD.fromJavaRDD(
            rows.mapPartitionsWithIndex(
                new SyncMapper(
                    mapping,
                    rekey.source().getNameAsString(),
                    to,
                    runDir.toString(),
                    shipped,
                    rejectedSoFar,
                    rekey.batch()),
                true));
    String description =
        "rekey sync: window "
            + number
            + " ["
            + Instant.ofEpochMilli(from)
            + ", "
            + Instant.ofEpochMilli(to)
            + ") of "
            + rekey.source()
            + " -> "
            + rekey.target();
    sc.setJobGroup("rekey-sync", description, false);
    RejectLimit limit = new RejectLimit(sc, "rekey-sync", rejectedSoFar, rekey.maxRejects());
    SyncOptions.Write how = options.write();
    WriteStats written;
    WriteEngine.Committed committed = null;
    WriteEngine engine = new WriteEngine(conf, job.faults(), runDir, UUID.randomUUID().toString());
    WriteEngine.Destination destination = null;
    try {
      if (how == SyncOptions.Write.AUTO) {
        // The window's size decides, so it is mapped once and kept for the write.
        mapped.persist(StorageLevel.MEMORY_AND_DISK_SER());
        long cells = mapped.map(t -> (long) ShuffleCell.cellCount(t._1())).fold(0L, Long::sum);
        how = cells <= AUTO_PUT_CELLS ? SyncOptions.Write.PUTS : SyncOptions.Write.HFILES;
        LOG.info(
            "rekey sync: window {} read and mapped in {} s: {} cells to write, as {}",
            number,
            seconds(t0),
            cells,
            how);
      }
      if (how == SyncOptions.Write.PUTS) {
        written =
            mapped
                .mapPartitionsWithIndex(
                    new PutWriterStage(rekey.target().getNameAsString(), shipped), false)
                .collect()
                .stream()
                .reduce(WriteStats::plus)
                .orElse(WriteStats.NONE);
      } else {
        destination = destination();
        committed = engine.writeHFiles(mapped, destination);
        written = committed.written();
      }
    } catch (Exception e) { // SparkException is checked, and Spark's Java API throws it unsaid
      if (!limit.tripped()) {
        throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
      }
      throw tooManyRejects(limit.rejectedSoFar(), how, runDir, e);
    } finally {
      limit.close();
      sc.clearJobGroup();
      mapped.unpersist(false);
    }
    SyncStats stats = counts(runDir, inputPartitions);
    if (!stats.addsUp() || stats.cellsOut() != written.cellsWritten()) {
      throw new RekeyException(
          "the counts of window "
              + number
              + " do not add up: "
              + stats.cellsRead()
              + " cells read, "
              + stats.cellsWritten()
              + " written + "
              + stats.cellsRejected()
              + " rejected; "
              + stats.cellsOut()
              + " cells made, "
              + written.cellsWritten()
              + " written. The watermark was not moved. This is a bug; the run's files are in "
              + runDir);
    }
    if (stats.rowsRejected() > rekey.maxRejects()) {
      throw tooManyRejects(stats.rowsRejected(), how, runDir, null);
    }
    StoredCells stored = null;
    int files = 0;
    Pressure pressure = Pressure.of(written);
    if (committed != null && !committed.ledger().entries().isEmpty()) {
      files = committed.ledger().entries().size();
      BulkLoader.Loaded loaded =
          engine.load(destination, committed.ledger(), written.cellsWritten());
      stored = loaded.stored();
      pressure = pressure.plus(Pressure.of(loaded));
      LOG.info("rekey sync: window {}: {}", number, stored.line());
    }
    if (pressure.heldBack()) {
      LOG.warn("rekey sync: window {}: {}", number, pressure.line());
    }
    return new SyncResult.Window(
        from,
        to,
        how == SyncOptions.Write.PUTS ? "puts" : "hfiles",
        stats,
        written.cellsWritten(),
        files,
        stored,
        pressure,
        seconds(t0));
  }

  /**
   * The window's cells: a raw scan (every version, delete markers and the cells they hide) of the
   * source with the window as its time range, so region servers skip store files entirely older
   * than the watermark. Rows whose key needs a column arrive whole.
   */
  private JavaPairRDD<ImmutableBytesWritable, Result> read(long from, long to, boolean whole) {
    Scan scan = SourceReader.fullScan(whole ? 0 : rekey.batch(), true);
    try {
      scan.setTimeRange(from, to);
    } catch (IOException e) {
      throw new RekeyException("cannot read the window " + from + ".." + to, e);
    }
    return SourceReader.live(sc, conf, rekey.source(), scan);
  }

  private RekeyException tooManyRejects(
      long rejected, SyncOptions.Write how, Path runDir, Exception e) {
    return new RekeyException(
        (e == null ? "" : "at least ")
            + rejected
            + " rows could not be mapped, more than --max-rejects "
            + rekey.maxRejects()
            + (how == SyncOptions.Write.PUTS
                ? "; other rows of the window may have been written (correct, and written again by"
                    + " the next sync)"
                : "; nothing of the window was loaded")
            + ", and the watermark was not moved. The rows and reasons are in "
            + RunFiles.rejectsGlob(runDir)
            + first(RunFiles.rejectExamples(conf, runDir, 1))
            + ". Fix the key specs, or raise --max-rejects to sync past them: every verdict then"
            + " counts the rows that cannot be mapped, and 'rekey sync --final --repair' puts the"
            + " others where they belong",
        e);
  }

  /**
   * The first reject, as its file says; a task the limit stopped may not have closed its file yet
   * (it is renamed into place when the partition ends), which the line then says instead.
   */
  private static String first(List<String> examples) {
    return examples.isEmpty()
        ? " (none readable yet: the job was stopped before the task that rejected them closed its"
            + " file)"
        : " (first: " + String.join(" | ", examples) + ")";
  }

  private SyncStats counts(Path runDir, int partitions) {
    SyncStats total = SyncStats.ZERO;
    try {
      for (String line : RunFiles.partitionCounts(conf, runDir, partitions)) {
        total = total.plus(SyncStats.fromLine(line));
      }
    } catch (IOException e) {
      throw new RekeyException("cannot read the sync's counts in " + runDir, e);
    }
    return total;
  }

  /** The target as the write engine writes it: its families and its regions as they are now. */
  private WriteEngine.Destination destination() {
    TableAdmin admin = new TableAdmin(connection);
    List<FamilySettings> families = new ArrayList<>();
    for (ColumnFamilyDescriptor f :
        admin.descriptor(rekey.target(), "target").getColumnFamilies()) {
      families.add(FamilySettings.of(f));
    }
    List<byte[]> starts = admin.regionStartKeys(rekey.target());
    return new WriteEngine.Destination(
        rekey.target(),
        families,
        starts.subList(1, starts.size()),
        WriterTasks.perRegion(SparkCores.of(sc).cores(), starts.size()),
        rekey.maxFileBytes(),
        false);
  }

  private Path staging() {
    return RunFiles.staging(conf, rekey.staging());
  }

  /** {@code STAGING/TARGET-sync}: one sync of a target at a time (the lock sees to that). */
  private Path runDir() {
    return new Path(staging(), rekey.target().getNameAsString().replace(':', '_') + "-sync");
  }

  private static double seconds(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
  }
}
