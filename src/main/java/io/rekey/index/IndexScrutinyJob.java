package io.rekey.index;

import io.rekey.common.Json;
import io.rekey.hbase.TableAdmin;
import io.rekey.index.entries.IndexEntries;
import io.rekey.index.entries.IndexKey;
import io.rekey.index.entries.RowRecord;
import io.rekey.keys.KeyReject;
import io.rekey.options.ReadMode;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunRecord;
import io.rekey.run.RunState;
import io.rekey.spark.JobContext;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import scala.Tuple3;

/**
 * Compares an index with its source both ways and, when asked, repairs it. Every source row gives
 * its expected entries (the same code that builds them) with their covered values; every index row
 * is read back to its source row through the layout.
 *
 * <ul>
 *   <li><b>valid</b>: expected and present, with the source's covered values.
 *   <li><b>stale</b>: expected and present, but a covered value differs from the source's.
 *   <li><b>missing</b>: expected, absent; <b>pending</b> instead when the source cell is newer than
 *       the watermark (the next update writes it).
 *   <li><b>invalid</b>: present, not expected, its source row exists (its value changed);
 *       <b>pending</b> instead when the row changed after the watermark.
 *   <li><b>orphan</b>: present, not expected, its source row is gone.
 *   <li><b>untracked</b>: a source row whose row record ({@link RowRecord}) does not list exactly
 *       the entries it gives (an update would leave behind an entry the record leaves out).
 *   <li><b>foreign</b>: a row of the index table that is no entry of this definition (no marker
 *       cell, or a key this layout cannot read): another layout's entries, other data. Counted,
 *       shown, never touched.
 * </ul>
 *
 * <p>Repair, under the index's lock so no update runs meanwhile, writes the missing and stale
 * entries from the source row as it is now, deletes the invalid and orphan ones up to their newest
 * cell, and writes the untracked rows' records again. Its cells carry its own time ({@link
 * RunState#nextStamp}: its start, kept later than any earlier run's), later than the entries it
 * replaces and than its delete markers, and a later run's cells are later still, so nothing a
 * repair leaves can hide a later build or update (see {@link IndexEntries}). Updates keep an index
 * exact on their own; a repair mends what they cannot see: writes stamped below the watermark, an
 * index built over an older one, lost cells.
 *
 * <p>The comparison is one Spark plan ({@link ScrutinyPlan}: expected entries from the source,
 * present ones from the index, joined and classified into the kinds above); the row records' check
 * is {@link RowRecordCheck}, the repair it feeds {@link IndexRepair}. This class holds the lock,
 * the read, the counts and examples, and the result.
 */
public final class IndexScrutinyJob {

  /** The kinds whose examples the result shows, in its order. */
  private static final List<ScrutinyKind> EXAMPLES_ORDER =
      List.of(
          ScrutinyKind.MISSING,
          ScrutinyKind.STALE,
          ScrutinyKind.INVALID,
          ScrutinyKind.ORPHAN,
          ScrutinyKind.UNTRACKED,
          ScrutinyKind.FOREIGN,
          ScrutinyKind.PENDING);

  private final JavaSparkContext sc;
  private final Connection connection;
  private final Configuration conf;
  private final IndexDefinition definition;
  private final ReadMode read;
  private final String staging;

  public IndexScrutinyJob(
      JobContext job, IndexDefinition definition, ReadMode read, String staging) {
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.definition = definition;
    this.read = read;
    this.staging = staging;
  }

  /**
   * @param repair write missing and stale entries, delete invalid and orphan ones
   * @param samples examples kept per kind
   */
  public IndexScrutinyResult execute(boolean repair, int samples, boolean breakLock) {
    long t0 = System.nanoTime();
    long started = System.currentTimeMillis();
    String application = sc.sc().applicationId();
    RunState state = new RunState(connection, definition.stateTable(), definition.indexTable());
    try (RunLock lock = state.lock("index scrutiny", application, breakLock)) {
      definition.requireSame(state.pinnedDefinition(), "index scrutiny");
      state.deleteLeftoverRead(conf);
      TableDescriptor index =
          new TableAdmin(connection).descriptor(definition.indexTable(), "index");
      IndexTable.requireRowRecords(index, definition);
      OptionalLong w = state.watermark();
      Long shown = w.isPresent() ? w.getAsLong() : null;
      RunRecord.Start start =
          new RunRecord.Start(
              repair ? "scrutiny --repair" : "scrutiny", started, application, null, null, shown);
      return state.recorded(
          started,
          () ->
              compare(state, index, repair, samples, shown, w.orElse(Long.MAX_VALUE), started, t0),
          r -> Json.toJsonLine(IndexRunRecord.of(start, r)),
          message -> Json.toJsonLine(IndexRunRecord.failed(start, message)));
    }
  }

  private IndexScrutinyResult compare(
      RunState state,
      TableDescriptor index,
      boolean repair,
      int samples,
      Long shownWatermark,
      long watermark,
      long started,
      long t0) {
    IndexEntries entries = definition.entries();
    // Every source row, those without any of the index's columns too: the source row count is
    // the table's.
    Scan scan = entries.restrictCountingEveryRow(new Scan().setCacheBlocks(false).setCaching(500));
    TableRead read =
        TableRead.open(
            sc,
            connection,
            conf,
            definition.source(),
            scan,
            this.read,
            RunFiles.staging(conf, staging),
            "scrutiny");
    state.rememberRead(read.snapshot(), read.restoreDir());
    sc.setJobGroup(
        "index scrutiny",
        "index scrutiny: " + definition.source() + " against " + definition.indexTable(),
        false);
    try {
      JavaPairRDD<String, ExpectedRow> bySource =
          ScrutinyPlan.expected(read.rows(), entries).persist(StorageLevel.MEMORY_AND_DISK_SER());
      JavaPairRDD<String, Tuple3<String, Long, String>> classified =
          ScrutinyPlan.classify(
                  sc,
                  conf,
                  definition,
                  bySource,
                  ScrutinyPlan.present(sc, conf, definition, index),
                  watermark)
              .persist(StorageLevel.MEMORY_AND_DISK_SER());
      Map<ScrutinyKind, Long> counts = counts(classified);
      long sourceRowCount = bySource.count();
      Map<String, List<String>> examples = examples(classified, counts, samples);
      long written = 0;
      long deleted = 0;
      if (repair) {
        written = counts.get(ScrutinyKind.MISSING) + counts.get(ScrutinyKind.STALE);
        deleted = counts.get(ScrutinyKind.INVALID) + counts.get(ScrutinyKind.ORPHAN);
        if (written + deleted + counts.get(ScrutinyKind.UNTRACKED) > 0) {
          IndexRepair.apply(classified, conf, definition, state.nextStamp(started));
        }
      }
      bySource.unpersist(false);
      classified.unpersist(false);
      long presentCount =
          counts.get(ScrutinyKind.VALID)
              + counts.get(ScrutinyKind.STALE)
              + counts.get(ScrutinyKind.INVALID)
              + counts.get(ScrutinyKind.ORPHAN);
      return new IndexScrutinyResult(
          definition.source().getNameAsString(),
          definition.indexTable().getNameAsString(),
          shownWatermark,
          sourceRowCount,
          presentCount,
          counts.get(ScrutinyKind.VALID),
          counts.get(ScrutinyKind.STALE),
          counts.get(ScrutinyKind.MISSING),
          counts.get(ScrutinyKind.PENDING),
          counts.get(ScrutinyKind.INVALID),
          counts.get(ScrutinyKind.ORPHAN),
          counts.get(ScrutinyKind.UNTRACKED),
          counts.get(ScrutinyKind.FOREIGN),
          examples,
          repair,
          written,
          deleted,
          seconds(t0));
    } finally {
      sc.clearJobGroup();
      read.close();
      state.forgetRead();
    }
  }

  private static double seconds(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
  }

  /** How many of each kind, every kind named (0 when none). */
  private static Map<ScrutinyKind, Long> counts(
      JavaPairRDD<String, Tuple3<String, Long, String>> classified) {
    Map<ScrutinyKind, Long> counts = new EnumMap<>(ScrutinyKind.class);
    for (ScrutinyKind kind : ScrutinyKind.values()) {
      counts.put(kind, 0L);
    }
    classified.countByKey().forEach((k, v) -> counts.put(ScrutinyKind.of(k), v));
    return counts;
  }

  /** Up to {@code samples} examples of each kind found, for people, in the result's order. */
  private Map<String, List<String>> examples(
      JavaPairRDD<String, Tuple3<String, Long, String>> classified,
      Map<ScrutinyKind, Long> counts,
      int samples) {
    Map<String, List<String>> examples = new LinkedHashMap<>();
    for (ScrutinyKind kind : EXAMPLES_ORDER) {
      if (counts.get(kind) == 0 || samples == 0) {
        continue;
      }
      List<String> lines = new ArrayList<>();
      String label = kind.label();
      for (Tuple2<String, Tuple3<String, Long, String>> t :
          classified.filter(c -> c._1().equals(label)).take(samples)) {
        String detail = t._2()._3();
        String what =
            kind == ScrutinyKind.UNTRACKED
                ? "source row " + Bytes.toStringBinary(ScrutinyPlan.bytes(t._2()._1()))
                : describe(ScrutinyPlan.bytes(t._2()._1()));
        lines.add(what + (detail.isEmpty() ? "" : ": " + detail));
      }
      examples.put(label, lines);
    }
    return examples;
  }

  private String describe(byte[] indexKey) {
    try {
      IndexKey.Entry e = definition.key().decode(indexKey);
      return Bytes.toStringBinary(indexKey)
          + " -> "
          + Bytes.toStringBinary(e.sourceKey())
          + " ("
          + definition.valueName()
          + " '"
          + Bytes.toStringBinary(e.value())
          + "'"
          // A key field's entry has no time (IndexEntries.FIELD_TS).
          + (definition.field() != null ? "" : " at " + java.time.Instant.ofEpochMilli(e.ts()))
          + ")";
    } catch (KeyReject r) {
      return Bytes.toStringBinary(indexKey) + " (not a key of this index's layout: " + r + ")";
    }
  }
}
