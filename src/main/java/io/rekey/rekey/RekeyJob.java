package io.rekey.rekey;

import io.rekey.common.RekeyException;
import io.rekey.hbase.Outage;
import io.rekey.hbase.PurgedDeletes;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.ReadMode;
import io.rekey.read.SourceReader;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunState;
import io.rekey.security.DelegationTokens;
import io.rekey.spark.Faults;
import io.rekey.spark.JobContext;
import io.rekey.spark.SparkCores;
import io.rekey.verify.Counted;
import io.rekey.verify.MigrationDefinition;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyResult;
import io.rekey.write.BulkLoader;
import io.rekey.write.Ledger;
import io.rekey.write.Pressure;
import io.rekey.write.WriteEngine;
import io.rekey.write.WriteStats;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a table into a new row-key layout: plan, then run (read every cell with all its versions,
 * map the row keys, write sorted HFiles per target region; rejects counted and kept), then commit
 * (bulk load), then verify. Each step records itself in the run directory's manifest, so the same
 * command after a failure resumes instead of redoing or double-loading.
 *
 * <p>This class is the manifest's state machine: each step reads the manifest the last step left
 * and writes the next state. The work each step delegates lives elsewhere: the plan in {@link
 * RekeyPlanner}, the read, key mapping and HFile writing in {@link CopyStage}, the count checks in
 * {@link WrittenCheck}, the load in the write engine, the failure's clean-up decision in {@link
 * AfterFailure}, and the comparison in the verify job.
 */
public final class RekeyJob {
  private static final Logger LOG = LoggerFactory.getLogger(RekeyJob.class);
  private static final int REJECT_EXAMPLES = 5;

  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final Faults faults;
  private final RekeyOptions options;
  private final RekeyPlanner.Planned planned;
  private final Path runDir;
  private final CopyStage copy;
  private final Map<String, Double> stageSeconds = new LinkedHashMap<>();
  private Pressure pressure = Pressure.NONE;
  // The target's creation while the cells are written; awaited before a failure's clean-up too,
  // or a refusal that came first would leave the table to appear empty after it.
  private Future<Void> creation;
  // Set by run() when an earlier run had written every HFile: this run only loads them.
  private boolean resumedFromWritten;

  public RekeyJob(JobContext job, RekeyOptions options, RekeyPlanner.Planned planned) {
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.faults = job.faults();
    this.options = options;
    this.planned = planned;
    this.runDir = new Path(planned.plan().runDir());
    this.copy = new CopyStage(job, options, planned, runDir);
  }

  /** Plans a job: reads metadata and sample rows only. */
  public static RekeyPlanner.Planned plan(JobContext job, RekeyOptions options) {
    return plan(job.connection(), job.conf(), options, SparkCores.of(job.sc()).cores());
  }

  /**
   * The dry run: the plan, sized for the cores the submitted Spark settings give, without starting
   * Spark or writing anything.
   */
  public static RekeyResult dryRun(
      Connection connection, Configuration conf, RekeyOptions options) {
    long started = System.nanoTime();
    RekeyPlanner.Planned planned =
        plan(connection, conf, options, SparkCores.beforeStart(new SparkConf()).cores());
    return RekeyResult.dryRun(planned.plan(), seconds(started));
  }

  private static RekeyPlanner.Planned plan(
      Connection connection, Configuration conf, RekeyOptions options, int cores) {
    return new RekeyPlanner(new TableAdmin(connection), conf, Clock.systemUTC())
        .plan(options, cores);
  }

  /**
   * The whole job: run (or resume), commit, verify, clean up. A run that fails deletes the snapshot
   * it took (unless {@code --keep-snapshot}, or its HFiles are written and a rerun resumes), and a
   * target it created that holds nothing yet; the exception says what was removed or kept.
   */
  public RekeyResult execute() {
    long started = System.nanoTime();
    RekeyPlan plan = planned.plan();
    if (options.dryRun()) {
      return RekeyResult.dryRun(plan, seconds(started));
    }
    RunFiles.checkUsable(conf, runDir.getParent(), sc.master());
    RunManifest manifest;
    VerifyResult verify;
    boolean resumed;
    long syncWatermark;
    // One run per target at a time: a second would delete this one's run directory and snapshot.
    // Taken before anything can fail and be cleaned up, so a refused run touches nothing.
    try (RunLock lock =
        RunLock.take(
            connection,
            TableName.valueOf(options.stateTable()),
            options.target(),
            "rekey " + options.source() + " -> " + options.target(),
            sc.sc().applicationId(),
            options.breakLock())) {
      RunState state =
          new RunState(connection, TableName.valueOf(options.stateTable()), options.target());
      MigrationDefinition definition =
          MigrationDefinition.of(options.source(), options.mapping(), options.raw());
      if (!plan.createTarget()) {
        definition.requireSame(
            state.pinnedDefinition(), options.target().getNameAsString(), "rekey into it");
      }
      try {
        manifest = run();
        boolean loadedBefore = manifest.state() == RunManifest.State.LOADED;
        resumed = loadedBefore || resumedFromWritten;
        manifest = commit(manifest);
        syncWatermark = recordSyncWatermark(state, manifest, loadedBefore);
        state.pinDefinition(definition.text());
        verify = options.verify() ? verify(manifest) : null;
      } catch (RuntimeException e) {
        if (Outage.cause(e).isPresent()) {
          // HBase is not answering: cleaning up would only wait out its retries. A rerun of the
          // same command resumes or starts clean and removes what this run left.
          throw e;
        }
        String removed = cleanUpAfterFailure();
        if (removed.isEmpty() || !(e instanceof RekeyException)) {
          throw e;
        }
        throw new RekeyException(e.getMessage() + " (" + removed + ")", e);
      }
      cleanUp(manifest);
    }
    MapStats m = manifest.map();
    return RekeyResult.builder()
        .plan(plan)
        .resumed(resumed)
        .state(manifest.state().name())
        .rowsRead(m.rowsRead())
        .cellsRead(m.cellsRead())
        .cellsWritten(manifest.cellsWritten())
        .rowsRejected(m.rowsRejected())
        .cellsRejected(m.cellsRejected())
        .cellsSkipped(m.cellsSkipped())
        .bytesWritten(manifest.bytesWritten())
        .files(manifest.files())
        .stored(manifest.stored())
        .rejectsFiles(rejectsGlob(m))
        .rejectExamples(rejectExamples(m))
        .verify(verify)
        .syncWatermark(syncWatermark)
        .syncWarnings(
            PurgedDeletes.warnings(
                planned.sourceDescriptor(), conf, null, PurgedDeletes.Reader.SYNC))
        .pressure(pressure)
        .stageSeconds(stageSeconds)
        .totalSeconds(seconds(started))
        .build();
  }

  /**
   * Records in the state table, next to the target's lock, where {@code rekey sync} starts: the
   * copy's read start minus the safety lag. The first sync window overlaps the copy by the lag; a
   * cell copied twice is the same cell, and reads see no difference. A run that finds its copy
   * already loaded (the same command run again) keeps the watermark the syncs since moved on.
   */
  private long recordSyncWatermark(RunState state, RunManifest manifest, boolean loadedBefore) {
    java.util.OptionalLong now = state.watermark();
    if (loadedBefore && now.isPresent()) {
      LOG.info(
          "rekey: the copy into {} was already loaded; its sync watermark stays at {}",
          options.target(),
          java.time.Instant.ofEpochMilli(now.getAsLong()));
      return now.getAsLong();
    }
    long watermark = manifest.readFromMillis() - options.safetyLagMillis();
    state.moveWatermark(watermark);
    LOG.info(
        "rekey: sync watermark of {} set to {}: 'rekey sync' copies what is written from then on",
        options.target(),
        java.time.Instant.ofEpochMilli(watermark));
    return watermark;
  }

  /**
   * After a failure: deletes the run's snapshot, unless it is to be kept or a rerun resumes from it
   * (the HFiles are written: the rerun loads them and verifies against the same point in time), and
   * a target this run created while it is still empty (nothing loaded, so a rerun creates it
   * again).
   *
   * @return what was removed or kept, for the message; empty when nothing was
   */
  private String cleanUpAfterFailure() {
    if (DelegationTokens.expired()) {
      // HBase's client would retry every call for minutes before failing the same way.
      return "left the run directory, snapshot and target as they were: the job's delegation"
          + " tokens expired";
    }
    List<String> removed = new java.util.ArrayList<>();
    try {
      RunManifest current = RunManifest.read(conf, runDir);
      TableAdmin admin = new TableAdmin(connection);
      String snapshot = current != null ? current.snapshot() : planned.plan().snapshot();
      RunManifest.State state = current == null ? null : current.state();
      if (creation != null && !creation.isDone()) {
        admin.await(creation, options.target());
      }
      switch (AfterFailure.snapshot(
          state, snapshot != null && admin.snapshotExists(snapshot), options.keepSnapshot())) {
        case KEEP_TO_RESUME ->
            removed.add(
                "kept the snapshot "
                    + snapshot
                    + ": the same command loads the rest and verifies against it");
        case KEEP_AS_ASKED -> removed.add("kept the snapshot " + snapshot + " (--keep-snapshot)");
        case DELETE -> {
          admin.deleteSnapshot(snapshot);
          deleteQuietly(copy.restoreDir(snapshot));
          removed.add("removed the snapshot " + snapshot);
        }
        case NONE -> {
          // nothing to keep or remove
        }
      }
      if (AfterFailure.dropTarget(
          state,
          planned.plan().createTarget(),
          () -> admin.exists(options.target()) && !admin.hasRows(options.target()))) {
        admin.drop(options.target());
        removed.add("dropped the empty target " + options.target() + " it had created");
      }
    } catch (IOException | RuntimeException cleanup) {
      LOG.warn("rekey: could not clean up after the failure: {}", cleanup.getMessage());
    }
    return String.join("; ", removed);
  }

  /**
   * Writes the HFiles, or finds them written by an earlier run of the same job.
   *
   * @return the manifest in state WRITTEN (or LOADED when an earlier run loaded already)
   * @throws RekeyException before anything is loaded when rejects or collisions stop the job
   */
  public RunManifest run() {
    try {
      RunManifest earlier = RunManifest.read(conf, runDir);
      TableAdmin admin = new TableAdmin(connection);
      if (earlier != null && earlier.fingerprint().equals(options.fingerprint())) {
        if (earlier.state() == RunManifest.State.WRITTEN) {
          LOG.info("rekey: resuming {}: its HFiles are written, loading them", runDir);
          resumedFromWritten = true;
          return earlier;
        }
        if (earlier.state() == RunManifest.State.LOADED
            && admin.exists(options.target())
            && admin.hasRows(options.target())) {
          LOG.info(
              "rekey: {} was already loaded by an earlier run ({}); not loading again",
              options.target(),
              runDir);
          return earlier;
        }
      }
      FileSystem fs = runDir.getFileSystem(conf);
      if (fs.exists(runDir)) {
        LOG.info("rekey: starting clean: removing the earlier run's files in {}", runDir);
        if (earlier != null && earlier.snapshot() != null && !options.keepSnapshot()) {
          admin.deleteSnapshot(earlier.snapshot());
        }
        fs.delete(runDir, true);
      }
      return write(admin);
    } catch (IOException e) {
      throw new RekeyException("cannot use the run directory " + runDir + ": " + e.getMessage(), e);
    }
  }

  private RunManifest write(TableAdmin admin) throws IOException {
    RekeyPlan plan = planned.plan();
    long t0 = System.nanoTime();
    if (!plan.createTarget() && !options.allowNonEmpty() && admin.hasRows(options.target())) {
      throw new RekeyException(
          "the target "
              + options.target()
              + " already holds rows; rekey writes into an empty table so that verify can prove"
              + " the copy. Drop or truncate it, choose another --target, or pass --allow-nonempty");
    }
    boolean created = false;
    // The HFile writers need only the split points: the master assigns the new table's regions
    // while the cells are read and written, and the table is awaited before anything else.
    if (plan.createTarget()) {
      if (admin.exists(options.target())) {
        throw new RekeyException(
            "the target " + options.target() + " appeared after the plan was made; run again");
      }
      if (options.createNamespace()) {
        admin.ensureNamespace(options.target().getNamespaceAsString());
      }
      creation =
          admin.createLikeAsync(
              TargetFamilies.forNewTarget(planned.sourceDescriptor(), options.mapping()),
              options.target(),
              planned.splitPoints());
      created = true;
    }
    // Cells written from here on may miss the snapshot: a sync starts from this time (less the
    // safety lag, for writes in flight and clocks behind the driver's).
    long readFrom = System.currentTimeMillis();
    if (plan.snapshot() != null) {
      admin.snapshot(options.source(), plan.snapshot());
      LOG.info("rekey: took snapshot {} of {}", plan.snapshot(), options.source());
    }
    RunManifest manifest =
        new RunManifest(
            options.fingerprint(),
            java.util.UUID.randomUUID().toString(),
            RunManifest.State.STARTED,
            plan.snapshot(),
            created,
            null,
            0,
            0,
            0,
            null,
            readFrom,
            System.currentTimeMillis());
    manifest.write(conf, runDir);
    stageSeconds.put("plan", seconds(t0));

    long t1 = System.nanoTime();
    CopyStage.Copied copied;
    try {
      copied = copy.copy(manifest.snapshot(), manifest.runId());
    } catch (CopyStage.TooManyRejects e) {
      manifest.with(RunManifest.State.REFUSED).write(conf, runDir);
      throw e;
    }
    if (creation != null) {
      admin.await(creation, options.target());
      LOG.info("rekey: created {} with {} regions", options.target(), plan.targetRegions());
    }
    stageSeconds.put("read, map and write HFiles", seconds(t1));

    MapStats stats = copied.stats();
    WriteStats written = copied.committed().written();
    Ledger ledger = copied.committed().ledger();
    try {
      WrittenCheck.beforeLoad(
          stats, written, plan, options.maxRejects(), rejectsGlob(stats), runDir);
    } catch (RekeyException e) {
      manifest.with(RunManifest.State.REFUSED).write(conf, runDir);
      throw e;
    }
    RunManifest done =
        manifest.written(
            stats, written.cellsWritten(), written.bytesWritten(), ledger.entries().size());
    done.write(conf, runDir);
    LOG.info(
        "rekey: wrote {} cells in {} HFiles ({} rows read, {} rejected)",
        written.cellsWritten(),
        ledger.entries().size(),
        stats.rowsRead(),
        stats.rowsRejected());
    return done;
  }

  /**
   * Loads the committed HFiles that are not loaded yet (the ledger knows which), then counts the
   * cells stored from the target's store files; safe to repeat.
   */
  public RunManifest commit(RunManifest manifest) {
    if (manifest.state() == RunManifest.State.LOADED) {
      return manifest;
    }
    if (manifest.state() != RunManifest.State.WRITTEN) {
      throw new IllegalStateException("nothing to load: the run is " + manifest.state());
    }
    long t0 = System.nanoTime();
    try {
      Ledger ledger = Ledger.read(conf, runDir);
      if (ledger == null) {
        throw new RekeyException(
            "the run " + runDir + " is WRITTEN but has no ledger; delete it and run again");
      }
      BulkLoader.Loaded loaded =
          new WriteEngine(conf, faults, runDir, manifest.runId())
              .load(copy.destination(), ledger, manifest.cellsWritten());
      RunManifest done = manifest.loaded(loaded.stored());
      done.write(conf, runDir);
      LOG.info("rekey: {}", loaded.stored().line());
      pressure = Pressure.of(loaded);
      if (pressure.heldBack()) {
        LOG.warn("rekey: {}", pressure.line());
      }
      stageSeconds.put("bulk load and stored-cell count", seconds(t0));
      return done;
    } catch (IOException e) {
      throw new RekeyException("cannot record the load in " + runDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Compares the source with the target: the source through the run's snapshot while it exists (the
   * same point in time that was copied), else through a fresh snapshot, or a live scan; the target
   * through a snapshot of its own, or a live scan.
   */
  public VerifyResult verify(RunManifest manifest) {
    long t0 = System.nanoTime();
    TableAdmin admin = new TableAdmin(connection);
    List<byte[]> starts = admin.regionStartKeys(options.target());
    String snapshot = manifest.snapshot();
    boolean fresh = snapshot != null && !admin.snapshotExists(snapshot);
    if (fresh) {
      LOG.info("rekey: the run's snapshot {} is gone; verifying against a new one", snapshot);
    }
    // A fresh snapshot's lifecycle is TableRead's: taken here, deleted when verify is done.
    try (TableRead fresher =
            fresh
                ? TableRead.open(
                    sc,
                    connection,
                    conf,
                    options.source(),
                    copy.sourceScan(),
                    ReadMode.SNAPSHOT,
                    runDir,
                    "rekey-verify")
                : null;
        // The target as the source is read: through a snapshot of its own, or live.
        TableRead target =
            TableRead.openCompared(
                sc,
                connection,
                conf,
                options.target(),
                SourceReader.fullScan(options.batch(), options.raw()),
                options.read(),
                runDir,
                "rekey-verify")) {
      JavaPairRDD<ImmutableBytesWritable, Result> source =
          fresher != null ? fresher.rows() : copy.read(snapshot);
      sc.setJobGroup(
          "verify",
          "verify: " + options.source() + " through the key mapping vs " + options.target(),
          false);
      Counted counted =
          options.raw()
              ? Counted.markersAndVisible(planned.sourceDescriptor())
              : Counted.everyCell();
      try {
        VerifyResult result =
            new VerifyJob(sc, options.mapping(), starts, counted, counted)
                .compare(source, target.rows());
        stageSeconds.put("verify", seconds(t0));
        return result;
      } finally {
        sc.clearJobGroup();
      }
    }
  }

  private void deleteQuietly(Path path) {
    try {
      path.getFileSystem(conf).delete(path, true);
    } catch (IOException e) {
      LOG.warn("rekey: could not delete {}: {}", path, e.getMessage());
    }
  }

  private void cleanUp(RunManifest manifest) {
    try {
      FileSystem fs = runDir.getFileSystem(conf);
      fs.delete(RunFiles.tmp(runDir), true);
      if (manifest.snapshot() != null) {
        fs.delete(copy.restoreDir(manifest.snapshot()), true);
        if (!options.keepSnapshot()) {
          new TableAdmin(connection).deleteSnapshot(manifest.snapshot());
        }
      }
    } catch (IOException e) {
      LOG.warn("rekey: could not clean up {}: {}", runDir, e.getMessage());
    }
  }

  private String rejectsGlob(MapStats stats) {
    return stats == null || stats.rowsRejected() == 0 ? null : RunFiles.rejectsGlob(runDir);
  }

  private List<String> rejectExamples(MapStats stats) {
    if (stats == null || stats.rowsRejected() == 0) {
      return List.of();
    }
    return RunFiles.rejectExamples(conf, runDir, REJECT_EXAMPLES);
  }

  private static double seconds(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
  }
}
