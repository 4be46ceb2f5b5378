package io.rekey.index;

import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.hbase.Outage;
import io.rekey.hbase.PurgedDeletes;
import io.rekey.hbase.TableAdmin;
import io.rekey.index.entries.IndexEntries;
import io.rekey.options.OptionDef;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunRecord;
import io.rekey.run.RunState;
import io.rekey.spark.JobContext;
import io.rekey.write.BulkLoader;
import io.rekey.write.Pressure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds an index in full, or brings it up to date incrementally. Both take the index's lock, plan
 * (check the source, create the index table pre-split when missing, find the window), run (make and
 * write the entries as HFiles: {@link IndexLoad}) and commit (bulk load, then move the watermark
 * and record the run in the state table). The watermark moves only after a successful load, so a
 * failed run leaves it where it was and the next run indexes the same window again, which writes
 * the same entries: harmless.
 *
 * <p>A build reads everything (a snapshot by default) and sets the watermark to its start minus the
 * safety lag. An update reads only cells with timestamps in {@code [watermark, now - lag)}, through
 * the scan's time range, so store files older than the watermark are skipped, not read; it reads
 * them raw, so a delete retires the entries of its row like any other change.
 */
public final class IndexJob {
  /** Which of the two runs: a full build or an incremental update. */
  public enum Kind {
    BUILD,
    UPDATE;

    /** {@code build} or {@code update}, as run records and results name it. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code index build} or {@code index update}: the command. */
    public String command() {
      return "index " + word();
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(IndexJob.class);

  private final JobContext job;
  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final IndexRunOptions options;
  private final Kind kind;
  private final IndexDefinition definition;
  private final RunState state;
  private final Map<String, Double> stageSeconds = new LinkedHashMap<>();
  private List<String> warnings = List.of();

  private IndexJob(JobContext job, IndexRunOptions options, Kind kind) {
    this.job = job;
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.options = options;
    this.kind = kind;
    this.definition = options.definition();
    this.state = new RunState(connection, definition.stateTable(), definition.indexTable());
  }

  /** A full build. */
  public static IndexJob build(JobContext job, IndexRunOptions options) {
    return new IndexJob(job, options, Kind.BUILD);
  }

  /** An incremental run. */
  public static IndexJob update(JobContext job, IndexRunOptions options) {
    return new IndexJob(job, options, Kind.UPDATE);
  }

  /**
   * Runs the job under the index's lock.
   *
   * @throws io.rekey.run.RunLockedException when another run of the index holds the lock
   * @throws RekeyException when the run fails; the watermark is then unmoved
   */
  public IndexRunResult execute() {
    RunFiles.checkUsable(conf, staging(), sc.master());
    long started = System.currentTimeMillis();
    long t0 = System.nanoTime();
    String application = sc.sc().applicationId();
    try (RunLock lock = state.lock(kind.command(), application, options.breakLock())) {
      state.deleteLeftoverRead(conf);
      // A build into a table built with another definition would mix two entry shapes too; a
      // build that creates the table (its old one dropped) starts a new pin.
      String pinned = state.pinnedDefinition();
      boolean fresh =
          kind == Kind.BUILD && !new TableAdmin(connection).exists(definition.indexTable());
      if (!fresh) {
        definition.requireSame(pinned, kind.command());
      }
      if (pinned == null || fresh) {
        state.pinDefinition(definition.pinned().text());
      }
      if (fresh) {
        // A watermark left by the table's old incarnation would vouch for this one before it is
        // loaded: a lookup must see the build as unfinished until it moves the watermark.
        state.clearWatermark();
      }
      Long before = watermark();
      long windowTo =
          options.until() != null ? options.until() : started - definition.safetyLagMillis();
      RunRecord.Start start =
          new RunRecord.Start(
              kind.word(),
              started,
              application,
              kind == Kind.UPDATE ? before : null,
              windowTo,
              before);
      return state.recorded(
          started,
          () -> execute(started, t0, before, windowTo),
          r -> Json.toJsonLine(IndexRunRecord.of(start, r)),
          message -> Json.toJsonLine(IndexRunRecord.failed(start, message)));
    }
  }

  private IndexRunResult execute(long started, long t0, Long before, long windowTo) {
    Long windowFrom = null;
    if (kind == Kind.UPDATE) {
      if (before == null) {
        throw new RekeyException(
            "index "
                + definition.indexTable()
                + " has no watermark in "
                + definition.stateTable()
                + ": it was never built. Run 'index build' with the same definition first");
      }
      windowFrom = before;
      if (windowTo <= windowFrom) {
        LOG.info("index: nothing to do: the watermark {} is at or past {}", before, windowTo);
        return result(t0, false, windowFrom, windowTo, before, before, true, null, null);
      }
    }
    IndexTable table = new IndexTable(connection, definition, options.createNamespace());
    warnings =
        PurgedDeletes.warnings(
            table.check(), conf, definition.familiesRead(), PurgedDeletes.Reader.INDEX_UPDATE);
    stageSeconds.put("plan", seconds(t0));
    IndexLoad.Written written;
    BulkLoader.Loaded stored;
    long t2;
    try {
      // The run's start stamps its entry cells, kept later than any earlier run's, so what it
      // writes is newer than what it replaces and than a repair's delete markers (IndexEntries).
      written = run(table, windowFrom, windowTo, state.nextStamp(started));
      if (windowFrom == null) {
        refuseAbsentColumn(written.stats());
      }
      t2 = System.nanoTime();
      stored = new IndexLoad(job, definition, runDir()).load(written);
    } catch (RekeyException e) {
      throw dropEmptyCreatedTable(table, e);
    }
    if (options.write() == IndexRunOptions.Write.HFILES) {
      stageSeconds.put("bulk load", seconds(t2));
    }
    long after = Math.max(before == null ? Long.MIN_VALUE : before, windowTo);
    state.moveWatermark(after);
    return result(
        t0, written.table().created(), windowFrom, windowTo, before, after, false, written, stored);
  }

  /**
   * A build that read rows of which none holds the indexed column is an index on a column that is
   * not there (a typo, another family): it stops before anything is loaded or recorded, naming the
   * columns the table does have.
   */
  private void refuseAbsentColumn(IndexStats stats) {
    if (definition.column() == null || stats.rowsRead() == 0 || stats.rowsWithValue() > 0) {
      return;
    }
    throw new RekeyException(
        "no row of "
            + definition.source()
            + " holds "
            + definition.column()
            + " ("
            + stats.rowsRead()
            + " rows read), so the index would be empty; nothing was loaded. Columns seen in the"
            + " table: "
            + String.join(", ", columnsSeen())
            + ". Check --column (family and qualifier are case-sensitive)");
  }

  /** Up to 20 distinct columns of the source's first 1,000 rows, for a message. */
  private List<String> columnsSeen() {
    java.util.TreeSet<String> seen = new java.util.TreeSet<>();
    try (Table t = connection.getTable(definition.source());
        ResultScanner s = t.getScanner(new Scan().setLimit(1000).setCaching(1000))) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          if (seen.size() < 20) {
            seen.add(
                Bytes.toStringBinary(CellUtil.cloneFamily(c))
                    + ":"
                    + Bytes.toStringBinary(CellUtil.cloneQualifier(c)));
          }
        }
      }
    } catch (IOException e) {
      return List.of("(cannot read them: " + e.getMessage() + ")");
    }
    return new ArrayList<>(seen);
  }

  /**
   * After a failed run: an index table this run created that holds nothing is dropped (the next run
   * creates it again), and the failure says so. Not during an outage, which a cleanup would only
   * wait out.
   */
  private RekeyException dropEmptyCreatedTable(IndexTable table, RekeyException failure) {
    if (!table.createdByThisRun() || Outage.cause(failure).isPresent()) {
      return failure;
    }
    try {
      TableAdmin admin = new TableAdmin(connection);
      if (admin.exists(definition.indexTable()) && !admin.hasRows(definition.indexTable())) {
        admin.drop(definition.indexTable());
        return new RekeyException(
            failure.getMessage()
                + " (dropped the empty index table "
                + definition.indexTable()
                + " this run had created)",
            failure);
      }
    } catch (RuntimeException cleanup) {
      LOG.warn("index: could not drop {}: {}", definition.indexTable(), cleanup.getMessage());
    }
    return failure;
  }

  /** Reads the window, makes and writes the entries; nothing is loaded yet. */
  IndexLoad.Written run(IndexTable table, Long windowFrom, long windowTo, long stamp) {
    long t1 = System.nanoTime();
    // Rows of the index's few columns are small: an update's live scan of a window takes them
    // 5,000 to a round trip (the scanner's result size limit still caps a round trip's bytes);
    // 500 made a 20,000-row window 10-15% slower. A snapshot read does not use it.
    Scan base = new Scan().setCacheBlocks(false).setCaching(5000);
    IndexEntries entries = definition.entries();
    // A build counts every row, those without any of the index's columns too; an update reads,
    // raw, only the rows whose index columns changed in the window (deletes too).
    Scan scan =
        windowFrom == null ? entries.restrictCountingEveryRow(base) : entries.windowScan(base);
    if (windowFrom != null) {
      try {
        scan.setTimeRange(windowFrom, windowTo);
      } catch (IOException e) {
        throw new RekeyException("cannot read the window " + windowFrom + ".." + windowTo, e);
      }
    }
    try (TableRead read =
        TableRead.open(
            sc, connection, conf, definition.source(), scan, options.read(), staging(), "index")) {
      state.rememberRead(read.snapshot(), read.restoreDir());
      IndexLoad.Written written =
          new IndexLoad(job, definition, runDir())
              .write(
                  read,
                  windowFrom != null,
                  table,
                  options.write(),
                  options.maxRejects(),
                  stamp,
                  kind.command()
                      + ": read "
                      + definition.source()
                      + (windowFrom == null
                          ? ""
                          : " cells in [" + windowFrom + ", " + windowTo + ")")
                      + ", make entries, write HFiles for "
                      + definition.indexTable());
      stageSeconds.put(
          "read, make entries and write "
              + (options.write() == IndexRunOptions.Write.PUTS ? "Puts" : "HFiles"),
          seconds(t1));
      return written;
    } finally {
      state.forgetRead();
    }
  }

  private Long watermark() {
    OptionalLong w = state.watermark();
    return w.isPresent() ? w.getAsLong() : null;
  }

  private Path staging() {
    return RunFiles.staging(conf, options.staging());
  }

  /** {@code STAGING/index-INDEX}: one run of an index at a time (the lock sees to that). */
  Path runDir() {
    return new Path(
        staging(), "index-" + definition.indexTable().getNameAsString().replace(':', '_'));
  }

  private IndexRunResult result(
      long t0,
      boolean created,
      Long windowFrom,
      long windowTo,
      Long before,
      long after,
      boolean nothing,
      IndexLoad.Written w,
      BulkLoader.Loaded loaded) {
    Pressure pressure = w == null ? Pressure.NONE : w.pressure();
    if (loaded != null) {
      pressure = pressure.plus(Pressure.of(loaded));
    }
    if (pressure.heldBack()) {
      LOG.warn("{}: {}", kind.command(), pressure.line());
    }
    return IndexRunResult.builder()
        .kind(kind.word())
        .source(definition.source().getNameAsString())
        .index(definition.indexTable().getNameAsString())
        .definition(definition.valueName() + " -> " + definition.key().layout().canonicalSpec())
        .indexCreated(created)
        .indexRegions(w == null ? null : w.table().splitPlan())
        .read(options.read().cliName())
        .write(OptionDef.cliName(options.write()))
        .windowFrom(windowFrom)
        .windowTo(windowTo)
        .watermarkBefore(before)
        .watermarkAfter(after)
        .nothingToDo(nothing)
        .counts(w == null ? IndexStats.ZERO : w.stats())
        .cellsWritten(w == null ? 0 : w.cellsWritten())
        .bytesWritten(w == null ? 0 : w.bytesWritten())
        .files(w == null ? 0 : w.files())
        .stored(loaded == null ? null : loaded.stored())
        .pressure(pressure)
        .rejectsGlob(w == null ? null : w.rejectsGlob())
        .rejectExamples(w == null ? List.of() : w.rejectExamples())
        .stageSeconds(stageSeconds)
        .warnings(warnings)
        .seconds(seconds(t0))
        .build();
  }

  private static double seconds(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
  }
}
