package io.rekey.index;

import io.rekey.common.Json;
import io.rekey.hbase.TableAdmin;
import io.rekey.keys.KeyReject;
import io.rekey.read.SourceReader;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import io.rekey.run.RunLock;
import io.rekey.run.RunRecord;
import io.rekey.run.RunState;
import io.rekey.spark.JobContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
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
 * <p>The comparison is one Spark plan (expected entries from the source, present ones from the
 * index, joined and classified) whose steps share the definition and the kinds above; the row
 * records' check is {@link RowRecordCheck}, the repair it feeds {@link IndexRepair}.
 */
public final class IndexScrutinyJob {
  private static final String VALID = ScrutinyKind.VALID.label();
  private static final String UNEXPECTED = ScrutinyKind.UNEXPECTED.label();
  private static final String FOREIGN = ScrutinyKind.FOREIGN.label();

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
  private final boolean liveScan;
  private final String staging;

  public IndexScrutinyJob(
      JobContext job, IndexDefinition definition, boolean liveScan, String staging) {
    this.sc = job.sc();
    this.connection = job.connection();
    this.conf = job.conf();
    this.definition = definition;
    this.liveScan = liveScan;
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
    IndexEntries entries = new IndexEntries(definition);
    IndexKey key = definition.key();
    byte[] family = Bytes.toBytes(definition.family());
    byte[] marker = Bytes.toBytes(IndexDefinition.MARKER);
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
            liveScan,
            RunFiles.staging(conf, staging),
            "scrutiny");
    state.rememberRead(read.snapshot(), read.restoreDir());
    JavaPairRDD<ImmutableBytesWritable, Result> rows = read.rows();
    sc.setJobGroup(
        "index scrutiny",
        "index scrutiny: " + definition.source() + " against " + definition.indexTable(),
        false);
    try {
      // Each source row's expected entries and record, and its newest cell's time.
      JavaPairRDD<String, ExpectedRow> bySource =
          rows.mapToPair(
                  row -> {
                    Result r = row._2();
                    List<IndexEntries.Entry> made;
                    try {
                      made = entries.entries(r);
                    } catch (KeyReject e) {
                      made = List.of();
                    }
                    String covered = covered(entries.cells(r));
                    long newest = newest(r);
                    ArrayList<Tuple2<String, ScrutinyEntry>> out = new ArrayList<>(made.size());
                    List<byte[]> keys = new ArrayList<>(made.size());
                    for (IndexEntries.Entry e : made) {
                      out.add(
                          new Tuple2<>(text(e.key()), new ScrutinyEntry(e.ts(), covered, newest)));
                      keys.add(e.key());
                    }
                    return new Tuple2<>(
                        text(r.getRow()),
                        new ExpectedRow(out, text(RowRecord.encode(keys)), newest));
                  })
              .persist(StorageLevel.MEMORY_AND_DISK_SER());
      JavaPairRDD<String, ScrutinyEntry> expected =
          bySource.flatMapToPair(t -> t._2().entries().iterator());
      // (index key, (newest cell timestamp, covered values, whether it is this index's entry)),
      // from every family but the row records'.
      Scan entriesScan = new Scan().setCacheBlocks(false).setCaching(1000);
      for (ColumnFamilyDescriptor f : index.getColumnFamilies()) {
        if (!f.getNameAsString().equals(IndexDefinition.ROWS_FAMILY)) {
          entriesScan.addFamily(f.getName());
        }
      }
      JavaPairRDD<String, ScrutinyEntry> present =
          SourceReader.live(sc, conf, definition.indexTable(), entriesScan)
              .mapToPair(
                  row -> {
                    Result r = row._2();
                    long newest = Long.MIN_VALUE;
                    List<IndexEntries.EntryCell> cells = new ArrayList<>();
                    for (Cell c : r.rawCells()) {
                      // Other families of the table are not the index's; a row with only those
                      // is foreign.
                      if (CellUtil.matchingFamily(c, family)) {
                        newest = Math.max(newest, c.getTimestamp());
                        cells.add(
                            new IndexEntries.EntryCell(
                                CellUtil.cloneQualifier(c), CellUtil.cloneValue(c)));
                      }
                    }
                    boolean ours = r.containsColumn(family, marker) && decodes(key, r.getRow());
                    return new Tuple2<>(
                        text(r.getRow()),
                        ours
                            ? new ScrutinyEntry(newest, covered(cells), 0)
                            : ScrutinyEntry.foreign(newest));
                  });
      long w = watermark;
      // (kind, (index key, newest timestamp, detail)) of every entry either side.
      JavaPairRDD<String, Tuple3<String, Long, String>> oneSide =
          expected
              .fullOuterJoin(present.filter(t -> !t._2().foreign()))
              .mapToPair(
                  j -> {
                    Optional<ScrutinyEntry> want = j._2()._1();
                    Optional<ScrutinyEntry> have = j._2()._2();
                    if (want.isPresent() && have.isPresent()) {
                      ScrutinyKind kind = ScrutinyKind.ofBoth(want.get(), have.get(), w);
                      String detail =
                          kind == ScrutinyKind.VALID
                              ? ""
                              : "covered "
                                  + shown(have.get().covered())
                                  + ", the source has "
                                  + shown(want.get().covered());
                      return new Tuple2<>(
                          kind.label(), new Tuple3<>(j._1(), have.get().ts(), detail));
                    }
                    if (want.isPresent()) {
                      return new Tuple2<>(
                          ScrutinyKind.ofExpectedOnly(want.get(), w).label(),
                          new Tuple3<>(j._1(), want.get().ts(), ""));
                    }
                    return new Tuple2<>(UNEXPECTED, new Tuple3<>(j._1(), have.get().ts(), ""));
                  });
      // Unexpected entries: invalid when their source row exists, orphan when not.
      JavaPairRDD<String, Tuple3<String, Long, String>> unexpected =
          oneSide
              .filter(t -> t._1().equals(UNEXPECTED))
              .mapToPair(
                  t -> new Tuple2<>(text(key.decode(bytes(t._2()._1())).sourceKey()), t._2()));
      // Each source row's newest cell's time.
      JavaPairRDD<String, Long> sourceRows = bySource.mapValues(ExpectedRow::newest);
      JavaPairRDD<String, Tuple3<String, Long, String>> classified =
          oneSide
              .filter(t -> !t._1().equals(UNEXPECTED))
              .union(
                  unexpected
                      .cogroup(sourceRows)
                      .flatMapToPair(
                          g -> {
                            Iterator<Long> row = g._2()._2().iterator();
                            String kind =
                                ScrutinyKind.ofUnexpected(row.hasNext() ? row.next() : null, w)
                                    .label();
                            List<Tuple2<String, Tuple3<String, Long, String>>> out =
                                new ArrayList<>();
                            for (Tuple3<String, Long, String> e : g._2()._1()) {
                              out.add(new Tuple2<>(kind, e));
                            }
                            return out.iterator();
                          }))
              .union(RowRecordCheck.untracked(sc, conf, definition, bySource, w))
              .union(
                  present
                      .filter(t -> t._2().foreign())
                      .mapToPair(t -> new Tuple2<>(FOREIGN, new Tuple3<>(t._1(), t._2().ts(), ""))))
              .persist(StorageLevel.MEMORY_AND_DISK_SER());
      Map<ScrutinyKind, Long> counts = new EnumMap<>(ScrutinyKind.class);
      for (ScrutinyKind kind : ScrutinyKind.values()) {
        counts.put(kind, 0L);
      }
      classified.countByKey().forEach((k, v) -> counts.put(ScrutinyKind.of(k), v));
      long sourceRowCount = bySource.count();
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
                  ? "source row " + Bytes.toStringBinary(bytes(t._2()._1()))
                  : describe(bytes(t._2()._1()));
          lines.add(what + (detail.isEmpty() ? "" : ": " + detail));
        }
        examples.put(label, lines);
      }
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

  /** Whether the layout reads the key back. */
  private static boolean decodes(IndexKey key, byte[] indexKey) {
    try {
      key.decode(indexKey);
      return true;
    } catch (KeyReject | RuntimeException e) {
      return false;
    }
  }

  /** An entry's covered cells (the marker aside) as one text, in qualifier order. */
  private static String covered(List<IndexEntries.EntryCell> cells) {
    List<String> parts = new ArrayList<>();
    for (IndexEntries.EntryCell c : cells) {
      String q = text(c.qualifier());
      if (!q.equals(IndexDefinition.MARKER)) {
        parts.add(q + "\u0000" + text(c.value()));
      }
    }
    java.util.Collections.sort(parts);
    return String.join("\u0001", parts);
  }

  /** {@link #covered} for people: {@code m:subject='hello'}, or {@code nothing}. */
  private static String shown(String covered) {
    if (covered.isEmpty()) {
      return "nothing";
    }
    List<String> out = new ArrayList<>();
    for (String part : covered.split("\u0001")) {
      String[] qv = part.split("\u0000", 2);
      out.add(Bytes.toStringBinary(bytes(qv[0])) + "='" + Bytes.toStringBinary(bytes(qv[1])) + "'");
    }
    return String.join(", ", out);
  }

  /** The newest timestamp among the cells of a source row read, or 0 when it has none. */
  private static long newest(Result r) {
    long newest = 0;
    for (Cell c : r.rawCells()) {
      newest = Math.max(newest, c.getTimestamp());
    }
    return newest;
  }

  private static double seconds(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
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

  /** Bytes as a string of the same length that sorts and compares the same. */
  static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
