package io.rekey.index;

import io.rekey.index.entries.IndexEntries;
import io.rekey.index.entries.IndexKey;
import io.rekey.index.entries.IndexShape;
import io.rekey.index.entries.RowRecord;
import io.rekey.keys.KeyReject;
import io.rekey.read.SourceReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;
import scala.Tuple3;

/**
 * Scrutiny's comparison as one Spark plan, apart from the job's lock, read, counts and repair:
 * every source row's expected entries (made by the code that builds them) with their covered
 * values, every index row read back to its source row through the layout, joined and classified
 * into {@link ScrutinyKind}s. Static steps whose functions carry their inputs alone, so nothing of
 * the job travels to the executors.
 */
final class ScrutinyPlan {
  static final String UNEXPECTED = ScrutinyKind.UNEXPECTED.label();
  static final String FOREIGN = ScrutinyKind.FOREIGN.label();

  private ScrutinyPlan() {}

  /** Each source row's expected entries and record, and its newest cell's time, by source key. */
  static JavaPairRDD<String, ExpectedRow> expected(
      JavaPairRDD<ImmutableBytesWritable, Result> rows, IndexEntries entries) {
    return rows.mapToPair(
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
            out.add(new Tuple2<>(text(e.key()), new ScrutinyEntry(e.ts(), covered, newest)));
            keys.add(e.key());
          }
          return new Tuple2<>(
              text(r.getRow()), new ExpectedRow(out, text(RowRecord.encode(keys)), newest));
        });
  }

  /**
   * Every entry of the index table by index key: its newest cell's time and covered values, or
   * {@link ScrutinyEntry#foreign} for a row that is no entry of this definition.
   */
  static JavaPairRDD<String, ScrutinyEntry> present(
      JavaSparkContext sc, Configuration conf, IndexDefinition definition, TableDescriptor index) {
    IndexKey key = definition.key();
    byte[] family = Bytes.toBytes(definition.family());
    byte[] marker = Bytes.toBytes(IndexShape.MARKER);
    // (index key, (newest cell timestamp, covered values, whether it is this index's entry)),
    // from every family but the row records'.
    Scan entriesScan = new Scan().setCacheBlocks(false).setCaching(1000);
    for (ColumnFamilyDescriptor f : index.getColumnFamilies()) {
      if (!f.getNameAsString().equals(IndexShape.ROWS_FAMILY)) {
        entriesScan.addFamily(f.getName());
      }
    }
    return SourceReader.live(sc, conf, definition.indexTable(), entriesScan)
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
  }

  /**
   * (kind label, (key, newest timestamp, detail)) of every entry either side, every source row
   * whose record is off ({@link RowRecordCheck}) and every foreign row.
   *
   * @param watermark cells newer than this are pending, not missing or invalid
   */
  static JavaPairRDD<String, Tuple3<String, Long, String>> classify(
      JavaSparkContext sc,
      Configuration conf,
      IndexDefinition definition,
      JavaPairRDD<String, ExpectedRow> bySource,
      JavaPairRDD<String, ScrutinyEntry> present,
      long watermark) {
    IndexKey key = definition.key();
    JavaPairRDD<String, ScrutinyEntry> expected =
        bySource.flatMapToPair(t -> t._2().entries().iterator());
    // (kind, (index key, newest timestamp, detail)) of every entry either side.
    JavaPairRDD<String, Tuple3<String, Long, String>> oneSide =
        expected
            .fullOuterJoin(present.filter(t -> !t._2().foreign()))
            .mapToPair(
                j -> {
                  Optional<ScrutinyEntry> want = j._2()._1();
                  Optional<ScrutinyEntry> have = j._2()._2();
                  if (want.isPresent() && have.isPresent()) {
                    ScrutinyKind kind = ScrutinyKind.ofBoth(want.get(), have.get(), watermark);
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
                        ScrutinyKind.ofExpectedOnly(want.get(), watermark).label(),
                        new Tuple3<>(j._1(), want.get().ts(), ""));
                  }
                  return new Tuple2<>(UNEXPECTED, new Tuple3<>(j._1(), have.get().ts(), ""));
                });
    // Unexpected entries: invalid when their source row exists, orphan when not.
    JavaPairRDD<String, Tuple3<String, Long, String>> unexpected =
        oneSide
            .filter(t -> t._1().equals(UNEXPECTED))
            .mapToPair(t -> new Tuple2<>(text(key.decode(bytes(t._2()._1())).sourceKey()), t._2()));
    // Each source row's newest cell's time.
    JavaPairRDD<String, Long> sourceRows = bySource.mapValues(ExpectedRow::newest);
    return oneSide
        .filter(t -> !t._1().equals(UNEXPECTED))
        .union(
            unexpected
                .cogroup(sourceRows)
                .flatMapToPair(
                    g -> {
                      Iterator<Long> row = g._2()._2().iterator();
                      String kind =
                          ScrutinyKind.ofUnexpected(row.hasNext() ? row.next() : null, watermark)
                              .label();
                      List<Tuple2<String, Tuple3<String, Long, String>>> out = new ArrayList<>();
                      for (Tuple3<String, Long, String> e : g._2()._1()) {
                        out.add(new Tuple2<>(kind, e));
                      }
                      return out.iterator();
                    }))
        .union(RowRecordCheck.untracked(sc, conf, definition, bySource, watermark))
        .union(
            present
                .filter(t -> t._2().foreign())
                .mapToPair(t -> new Tuple2<>(FOREIGN, new Tuple3<>(t._1(), t._2().ts(), ""))));
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
      if (!q.equals(IndexShape.MARKER)) {
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

  /** Bytes as a string of the same length that sorts and compares the same. */
  static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
