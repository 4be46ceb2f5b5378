package io.rekey.audit;

import io.rekey.describe.Severity;
import io.rekey.describe.TableDescription;
import io.rekey.hbase.ProgressReporter;
import io.rekey.hbase.RunFiles;
import io.rekey.hbase.SourceReader;
import io.rekey.hbase.TableAdmin;
import io.rekey.hbase.TableInspector;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.RandomRowFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

  public AuditJob(
      JavaSparkContext sc, Connection connection, Configuration conf, AuditOptions options) {
    this.sc = sc;
    this.connection = connection;
    this.conf = conf;
    this.options = options;
  }

  /** Reads the table once and returns what it found. */
  public AuditResult execute() {
    long started = System.nanoTime();
    long startedAt = System.currentTimeMillis();
    TableDescription description = new TableInspector(connection).describe(options.table());
    TableAdmin admin = new TableAdmin(connection);
    List<byte[]> starts = admin.regionStartKeys(options.table());
    ProfileSettings settings =
        ProfileSettings.of(starts, options.sourceKey(), options.rowSample(), options.cellSample());
    String snapshot =
        options.liveScan()
            ? null
            : "audit-" + options.table().getNameAsString().replace(':', '_') + "-" + startedAt;
    Path restoreDir =
        snapshot == null ? null : new Path(RunFiles.staging(conf, options.staging()), snapshot);
    TableProfile profile;
    try {
      if (snapshot != null) {
        admin.snapshot(options.table(), snapshot);
        LOG.info("audit: took snapshot {} of {}", snapshot, options.table());
      }
      profile = profile(settings, snapshot, restoreDir, starts.size());
    } finally {
      if (snapshot != null) {
        admin.deleteSnapshot(snapshot);
        deleteQuietly(restoreDir);
      }
    }
    double seconds = Math.round((System.nanoTime() - started) / 1e7) / 100.0;
    return AuditAnalysis.analyze(
        profile,
        new AuditAnalysis.Context(
            options.table().getNameAsString(),
            snapshot == null ? "live-scan" : "snapshot",
            options.sampling(),
            options.sourceKeySpec(),
            description,
            options.candidates(),
            options.whatIfRegions(starts.size()),
            startedAt,
            seconds));
  }

  private TableProfile profile(
      ProfileSettings settings, String snapshot, Path restoreDir, int regions) {
    Scan scan = SourceReader.fullScan(options.batch(), true);
    if (options.sampleFraction() < 1) {
      scan.setFilter(new RandomRowFilter((float) options.sampleFraction()));
    }
    JavaPairRDD<ImmutableBytesWritable, Result> source;
    if (snapshot == null) {
      source = SourceReader.live(sc, conf, options.table(), scan);
    } else {
      // Enough read tasks to keep every core busy even when one region holds most of the data.
      int pieces = Math.max(1, Math.min(8, (2 * sc.defaultParallelism() + regions - 1) / regions));
      source = SourceReader.fromSnapshot(sc, conf, snapshot, restoreDir, scan, pieces);
    }
    LongAccumulator progress = sc.sc().longAccumulator("audit cells read");
    sc.setJobGroup(
        "audit",
        "audit: profile "
            + options.table()
            + " ("
            + source.getNumPartitions()
            + " splits, "
            + (snapshot == null ? "live scan" : "snapshot " + snapshot)
            + ")",
        false);
    try (ProgressReporter reporter = new ProgressReporter("audit", sc, progress, 0, 10)) {
      byte[] merged =
          source
              .mapPartitions(new ProfileStage(settings, options.rowsPerSplit(), progress))
              .treeReduce(TableProfile::mergeBytes, 2);
      return TableProfile.fromBytes(merged);
    } finally {
      sc.clearJobGroup();
    }
  }

  private void deleteQuietly(Path path) {
    try {
      path.getFileSystem(conf).delete(path, true);
    } catch (IOException e) {
      LOG.warn("audit: could not delete {}: {}", path, e.getMessage());
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
