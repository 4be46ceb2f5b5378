package io.rekey.rekey;

import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.ReadMode;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunRecord;
import io.rekey.run.RunState;
import io.rekey.spark.JobContext;
import io.rekey.spark.SparkCores;
import io.rekey.verify.ChangedSince;
import io.rekey.verify.MigrationDefinition;
import io.rekey.verify.RowDifferences;
import io.rekey.verify.Sides;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import io.rekey.verify.VerifyResult;
import io.rekey.write.Pressure;
import io.rekey.write.PutWriterStage;
import io.rekey.write.WriteStats;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Makes a migration's target read as its source, through the key mapping, whatever made them differ
 * (writes stamped in a window's past, deletes a compaction purged, moves, a failed window, a hand
 * edit): under the target's run lock it compares the two row by row ({@link RowDifferences}: the
 * source from a snapshot, the target live, both as of {@code --until}), reads the differing rows
 * again and writes only what differs ({@link RowFix}: Puts with their own timestamps, exact version
 * deletes), then verifies. A second run finds nothing to write.
 */
public final class RepairJob {
  private static final Logger LOG = LoggerFactory.getLogger(RepairJob.class);
  private static final int EXAMPLES = 5;

  private final JobContext job;
  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final RepairOptions options;
  private final RekeyOptions rekey;
  private final RunState state;

  public RepairJob(JobContext job, RepairOptions options) {
    this.job = job;
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.options = options;
    this.rekey = options.rekey();
    this.state = new RunState(connection, TableName.valueOf(rekey.stateTable()), rekey.target());
  }

  /**
   * Runs the repair under the target's lock (a sync or another repair would write the rows it is
   * fixing) and records it in the run history.
   *
   * @throws io.rekey.run.RunLockedException when another run writing the target holds the lock
   */
  public RepairResult execute() {
    Path staging = RunFiles.staging(conf, rekey.staging());
    if (rekey.read() == ReadMode.SNAPSHOT) {
      RunFiles.checkUsable(conf, staging, sc.master());
    }
    long started = System.currentTimeMillis();
    String run = rekey.dryRun() ? "repair --dry-run" : "repair";
    try (RunLock lock =
        state.lock(
            "rekey " + run + " " + rekey.source() + " -> " + rekey.target(),
            sc.sc().applicationId(),
            rekey.breakLock())) {
      MigrationDefinition.of(rekey.source(), rekey.mapping(), rekey.raw())
          .requireSame(state.pinnedDefinition(), rekey.target().getNameAsString(), "rekey " + run);
      OptionalLong watermark = state.watermark();
      Long found = watermark.isPresent() ? watermark.getAsLong() : null;
      RunRecord.Start start =
          new RunRecord.Start(run, started, sc.sc().applicationId(), null, options.until(), found);
      return state.recorded(
          started,
          () -> repairHoldingLock(staging),
          r -> Json.toJsonLine(RepairRunRecord.of(start, r)),
          message -> Json.toJsonLine(RepairRunRecord.failed(start, message)));
    }
  }

  /**
   * The repair without taking the lock or recording a run: for a run that holds the target's lock
   * already ({@code rekey sync --final --repair}).
   */
  RepairResult repairHoldingLock(Path staging) {
    long t0 = System.nanoTime();
    TableAdmin admin = new TableAdmin(connection);
    TableDescriptor target = admin.descriptor(rekey.target(), "target");
    TargetFamilies.require(admin.descriptor(rekey.source(), "source"), target, rekey.mapping());
    // What reads return is compared and restored; delete markers are the means, not the content.
    Sides sides = Sides.of(admin, rekey.source(), rekey.target(), false, options.until());
    if (options.until() != null) {
      // Rows either side changed at or after --until are left alone: as of then they cannot be
      // read exactly, and writing them could bring back what a later marker deleted.
      sides =
          sides.leavingOut(
              ChangedSince.find(
                  sc,
                  conf,
                  rekey.source(),
                  rekey.target(),
                  rekey.mapping(),
                  options.until(),
                  rekey.batch()));
    }
    int sourceBatch = rekey.mapping().source().columns().isEmpty() ? rekey.batch() : 0;
    Totals totals;
    List<String> examples = new ArrayList<>();
    String maskedExample = null;
    WriteStats written = WriteStats.NONE;
    double compareSeconds;
    try (TableRead source =
            TableRead.open(
                sc,
                connection,
                conf,
                rekey.source(),
                sides.sourceScan(sourceBatch),
                rekey.read(),
                staging,
                "rekey-repair");
        // Through a snapshot of its own where large enough (openCompared); the differing rows are
        // read again live.
        TableRead targetRead =
            TableRead.openCompared(
                sc,
                connection,
                conf,
                rekey.target(),
                sides.targetScan(rekey.batch()),
                rekey.read(),
                staging,
                "rekey-repair")) {
      JavaPairRDD<ImmutableBytesWritable, Result> targetRows = targetRead.rows();
      int partitions = 2 * SparkCores.of(sc).cores();
      JavaRDD<RowDifferences.Differing> differing =
          RowDifferences.of(
              source.rows(),
              targetRows,
              rekey.mapping(),
              sides.source(),
              sides.target(),
              partitions,
              admin.regionStartKeys(rekey.target()));
      JavaRDD<RepairStage.Fixed> fixes =
          differing
              .mapPartitions(
                  new RepairStage(
                      rekey.source().getNameAsString(),
                      rekey.target().getNameAsString(),
                      rekey.mapping(),
                      sides.source(),
                      sides.target(),
                      newVersionBehavior(target),
                      options.until() == null ? Long.MAX_VALUE : options.until(),
                      rekey.batch(),
                      new ShippedConfiguration(conf)))
              .persist(StorageLevel.MEMORY_AND_DISK_SER());
      try {
        sc.setJobGroup(
            "rekey-repair",
            "rekey repair: compare "
                + rekey.source()
                + " through the key mapping with "
                + rekey.target()
                + " row by row",
            false);
        totals = fixes.map(Totals::of).fold(Totals.ZERO, Totals::plus);
        compareSeconds = seconds(t0);
        LOG.info(
            "rekey repair: {} rows differ ({} missing, {} different, {} extra) in {} s: {} cells"
                + " to put, {} to delete, {} masked",
            totals.rows(),
            totals.missing,
            totals.different,
            totals.extra,
            compareSeconds,
            totals.puts,
            totals.deletes,
            totals.masked);
        for (RepairStage.Fixed f : fixes.filter(f -> !f.continuation()).take(EXAMPLES)) {
          examples.add(f.kind() + " " + io.rekey.keys.KeyText.of(f.key()).printable());
        }
        if (totals.masked > 0) {
          maskedExample = fixes.filter(f -> f.example() != null).first().example();
        }
        if (!rekey.dryRun() && totals.puts + totals.deletes > 0) {
          written = write(fixes);
          if (written.cellsWritten() != totals.puts + totals.deletes) {
            throw new RekeyException(
                "rekey repair wrote "
                    + written.cellsWritten()
                    + " cells but worked out "
                    + (totals.puts + totals.deletes)
                    + " to write: this is a bug; run the repair again");
          }
        }
      } finally {
        sc.clearJobGroup();
        fixes.unpersist(false);
      }
    }
    VerifyResult verify = null;
    if (!rekey.dryRun() && rekey.verify()) {
      verify =
          VerifyJob.tables(
              job,
              new VerifyOptions(
                  rekey.source(),
                  rekey.target(),
                  rekey.mapping(),
                  rekey.read(),
                  rekey.batch(),
                  false,
                  options.until(),
                  rekey.stateTable(),
                  options.acceptUnmapped(),
                  rekey.allowMerge()),
              staging);
    }
    return new RepairResult(
        rekey.source().getNameAsString(),
        rekey.target().getNameAsString(),
        rekey.dryRun(),
        options.until(),
        totals.missing,
        totals.different,
        totals.extra,
        sides.source().leftOut().size(),
        totals.puts,
        totals.deletes,
        totals.masked,
        written.cellsWritten(),
        examples,
        maskedExample,
        verify,
        Pressure.of(written),
        compareSeconds,
        seconds(t0));
  }

  /** Writes the fixes as Puts and Deletes; what the writers had acknowledged. */
  private WriteStats write(JavaRDD<RepairStage.Fixed> fixes) {
    sc.setJobDescription("rekey repair: write the differing rows of " + rekey.target());
    JavaPairRDD<byte[], byte[]> records =
        fixes.flatMapToPair(
            f -> {
              List<Tuple2<byte[], byte[]>> out = new ArrayList<>(f.records().size());
              for (byte[] r : f.records()) {
                out.add(new Tuple2<>(r, null));
              }
              return out.iterator();
            });
    return records
        .mapPartitionsWithIndex(
            new PutWriterStage(rekey.target().getNameAsString(), new ShippedConfiguration(conf)),
            false)
        .collect()
        .stream()
        .reduce(WriteStats::plus)
        .orElse(WriteStats.NONE);
  }

  private static Set<String> newVersionBehavior(TableDescriptor table) {
    Set<String> out = new HashSet<>();
    for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
      if (f.isNewVersionBehavior()) {
        out.add(f.getNameAsString());
      }
    }
    return out;
  }

  /** The fixes' counts, summed over the differing rows. */
  record Totals(long missing, long different, long extra, long puts, long deletes, long masked)
      implements Serializable {
    static final Totals ZERO = new Totals(0, 0, 0, 0, 0, 0);

    static Totals of(RepairStage.Fixed f) {
      int row = f.continuation() ? 0 : 1;
      return new Totals(
          f.kind() == RowDifferences.Kind.MISSING ? row : 0,
          f.kind() == RowDifferences.Kind.DIFFERENT ? row : 0,
          f.kind() == RowDifferences.Kind.EXTRA ? row : 0,
          f.puts(),
          f.deletes(),
          f.masked());
    }

    Totals plus(Totals o) {
      return new Totals(
          missing + o.missing,
          different + o.different,
          extra + o.extra,
          puts + o.puts,
          deletes + o.deletes,
          masked + o.masked);
    }

    long rows() {
      return missing + different + extra;
    }
  }

  private static double seconds(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
  }
}
