package io.rekey.audit;

import io.rekey.common.Severity;
import io.rekey.hbase.TableAdmin;
import io.rekey.options.ReadMode;
import io.rekey.read.SourceReader;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.schema.TableDescription;
import io.rekey.schema.TableInspector;
import io.rekey.spark.JobContext;
import io.rekey.spark.ProgressReporter;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Profiles a table in one pass: plan (describe the table, take a snapshot), run (each task profiles
 * its split into bounded sketches and samples; a tree reduce merges them), analyze (the pure {@link
 * AuditAnalysis}). Writing the report is the caller's commit step. The scan is raw, so delete
 * markers and the cells they hide are counted: the audit sees what is stored.
 */
public final class AuditJob {
  private static final Logger LOG = LoggerFactory.getLogger(AuditJob.class);

  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final AuditOptions options;
  // Filled as the tasks' profiles arrive, for the report.
  private int readTasks;
  private long largestTaskProfileBytes;

  public AuditJob(JobContext job, AuditOptions options) {
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.options = options;
  }

  /** Reads the table once and returns what it found. */
  public AuditResult execute() {
    long started = System.nanoTime();
    long startedAt = System.currentTimeMillis();
    // The table's settings and region metrics are fetched while the snapshot is taken.
    CompletableFuture<TableDescription> describing =
        CompletableFuture.supplyAsync(
            () -> new TableInspector(connection).describe(options.table()),
            inBackground("audit-describe"));
    TableAdmin admin = new TableAdmin(connection);
    List<byte[]> starts =
        beforeDescription(describing, () -> admin.regionStartKeys(options.table()));
    ProfileSettings settings =
        ProfileSettings.of(starts, options.sourceKey(), options.rowSample(), options.cellSample());
    TableRead read = null;
    TableProfile profile = null;
    TableDescription description;
    CompletableFuture<Void> cleanup = CompletableFuture.completedFuture(null);
    Map<String, Double> stageSeconds = new LinkedHashMap<>();
    try {
      read =
          beforeDescription(
              describing,
              () ->
                  TableRead.open(
                      sc,
                      connection,
                      conf,
                      options.table(),
                      SourceReader.fullScan(options.batch(), true),
                      options.read(),
                      RunFiles.staging(conf, options.staging()),
                      "audit"));
      if (read.snapshot() != null) {
        LOG.info("audit: took snapshot {} of {}", read.snapshot(), options.table());
      }
      // The description is for the analysis: a snapshot read does not wait for the region
      // metrics. A live scan does, as the snapshot proved the table exists and a live scan of a
      // missing one would fail in Spark's planning with a bare exception, not the description's.
      description = options.read() == ReadMode.LIVE_SCAN ? description(describing) : null;
      stageSeconds.put("plan and snapshot", secondsSince(started));
      long t1 = System.nanoTime();
      profile = profile(settings, read);
      stageSeconds.put("read and profile", secondsSince(t1));
      if (description == null) {
        description = description(describing);
      }
    } finally {
      if (read != null) {
        if (profile == null) {
          read.close();
        } else {
          // The snapshot is not needed any more: it goes while the profile is analyzed.
          cleanup = CompletableFuture.runAsync(read::close, inBackground("audit-cleanup"));
        }
      }
    }
    long t2 = System.nanoTime();
    AuditResult result;
    try {
      result =
          AuditAnalysis.analyze(
              profile,
              new AuditAnalysis.Context(
                  options.table().getNameAsString(),
                  options.read().cliName(),
                  options.sampling().withTasks(readTasks, largestTaskProfileBytes),
                  options.sourceKeySpec(),
                  description,
                  options.candidates(),
                  options.whatIfRegions(starts.size()),
                  startedAt,
                  secondsSince(started)));
    } catch (RuntimeException e) {
      // The snapshot is gone before the failure is reported; its own failure would hide this one.
      cleanup.exceptionally(ignored -> null).join();
      throw e;
    }
    stageSeconds.put("analyze", secondsSince(t2));
    AuditAnalysis.joined(cleanup);
    LOG.info("audit: {} in {} s ({})", options.table(), secondsSince(started), stageSeconds);
    return result;
  }

  /**
   * Runs a step that needs the table while it is still being described. If the step fails, the
   * description's failure is thrown instead when there is one: it says best why (a missing table is
   * named with the tables that do exist).
   */
  private static <T> T beforeDescription(
      CompletableFuture<TableDescription> describing, Supplier<T> step) {
    try {
      return step.get();
    } catch (RuntimeException e) {
      description(describing);
      throw e;
    }
  }

  /** The table's description, or the reason it could not be read, as the job's own failure. */
  private static TableDescription description(CompletableFuture<TableDescription> describing) {
    return AuditAnalysis.joined(describing);
  }

  /**
   * Runs a blocking cluster call on a thread of its own: not in the common pool, which the
   * analysis's parallel simulation uses.
   */
  private static Executor inBackground(String name) {
    return step -> {
      Thread thread = new Thread(step, name);
      thread.setDaemon(true);
      thread.start();
    };
  }

  private static double secondsSince(long nanos) {
    return Math.round((System.nanoTime() - nanos) / 1e7) / 100.0;
  }

  private TableProfile profile(ProfileSettings settings, TableRead read) {
    JavaPairRDD<ImmutableBytesWritable, Result> source = read.rows();
    LongAccumulator progress = sc.sc().longAccumulator("audit cells read");
    sc.setJobGroup(
        "audit",
        "audit: profile "
            + options.table()
            + " ("
            + source.getNumPartitions()
            + " splits, "
            + (read.snapshot() == null ? "live scan" : "snapshot " + read.snapshot())
            + ")",
        false);
    ProgressReporter reporter = new ProgressReporter("audit", sc, progress, 0, 10);
    try {
      JavaRDD<byte[]> profiles =
          source.mapPartitions(
              new ProfileStage(
                  settings,
                  UUID.randomUUID().toString(),
                  options.rowsPerSplit(),
                  options.sampleFraction(),
                  progress));
      // Each task's profile is merged into one on the driver as the task finishes: read once,
      // never serialized again, and only the merged one and the arriving one are in memory.
      TableProfile merged = new TableProfile(settings);
      sc.sc()
          .runJob(
              profiles.rdd(),
              new FirstElement(),
              new AbstractFunction2<Object, byte[], BoxedUnit>() {
                @Override
                public BoxedUnit apply(Object partition, byte[] profile) {
                  synchronized (merged) {
                    merged.merge(TableProfile.fromBytes(profile));
                    readTasks++;
                    largestTaskProfileBytes = Math.max(largestTaskProfileBytes, profile.length);
                  }
                  return BoxedUnit.UNIT;
                }
              },
              ClassTag$.MODULE$.apply(byte[].class));
      return merged;
    } finally {
      reporter.close();
      sc.clearJobGroup();
    }
  }

  /** A partition's only element: its serialized profile. */
  private static final class FirstElement
      extends AbstractFunction2<TaskContext, scala.collection.Iterator<byte[]>, byte[]>
      implements Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public byte[] apply(TaskContext context, scala.collection.Iterator<byte[]> profile) {
      return profile.next();
    }
  }

  /** Whether the findings call for a non-zero exit under {@code --fail-on}. */
  public static boolean fails(AuditResult result, AuditOptions.FailOn failOn) {
    return switch (failOn) {
      case NEVER -> false;
      case WARN -> result.findings().stream().anyMatch(f -> f.severity() != Severity.INFO);
      case ERROR -> result.findings().stream().anyMatch(f -> f.severity() == Severity.ERROR);
    };
  }
}
