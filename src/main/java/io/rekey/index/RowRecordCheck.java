package io.rekey.index;

import io.rekey.index.entries.IndexShape;
import io.rekey.index.entries.RowRecord;
import io.rekey.read.SourceReader;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;
import scala.Tuple3;

/**
 * Scrutiny's check of the row records ({@link RowRecord}): each source row's record against the
 * keys of the entries the row gives, read from the index table's records family.
 */
final class RowRecordCheck {
  private RowRecordCheck() {}

  /**
   * The source rows whose row record does not list exactly their expected entries (a record of no
   * entries is as good as none), and records of rows that are gone but still list entries; not
   * those whose source changed after the watermark (the next update writes their records).
   */
  static JavaPairRDD<String, Tuple3<String, Long, String>> untracked(
      JavaSparkContext sc,
      Configuration conf,
      IndexDefinition definition,
      JavaPairRDD<String, ExpectedRow> bySource,
      long watermark) {
    JavaPairRDD<String, String> records =
        SourceReader.live(
                sc,
                conf,
                definition.indexTable(),
                new Scan()
                    .addFamily(Bytes.toBytes(IndexShape.ROWS_FAMILY))
                    .setCacheBlocks(false)
                    .setCaching(1000))
            .mapToPair(
                row -> {
                  Cell c = row._2().rawCells()[0];
                  return new Tuple2<>(
                      ScrutinyPlan.text(row._2().getRow()),
                      ScrutinyPlan.text(CellUtil.cloneValue(c)));
                });
    return bySource
        .fullOuterJoin(records)
        .flatMapToPair(
            j -> {
              String want = j._2()._1().isPresent() ? j._2()._1().get().record() : "";
              String have = j._2()._2().orElse("");
              boolean pending = j._2()._1().isPresent() && j._2()._1().get().newest() >= watermark;
              if (want.equals(have) || pending) {
                return Collections.emptyIterator();
              }
              String detail =
                  "its record lists "
                      + RowRecord.decode(ScrutinyPlan.bytes(have)).size()
                      + " entries, "
                      + (j._2()._1().isPresent()
                          ? "it gives " + RowRecord.decode(ScrutinyPlan.bytes(want)).size()
                          : "the row is gone");
              return List.of(
                      new Tuple2<>(
                          ScrutinyKind.UNTRACKED.label(), new Tuple3<>(j._1(), 0L, detail)))
                  .iterator();
            });
  }
}
