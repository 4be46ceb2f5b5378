package io.rekey.rekey;

import io.rekey.read.SourceReader;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The proof {@code rekey sync --final} asks for that the writers stopped: how many source rows hold
 * a cell (a Put or a marker) stamped at or after the time they were said to stop, and the first.
 *
 * @param first the first such row with its cell's timestamp, or null
 */
record WritesAfterStop(long rows, String first) {
  static final WritesAfterStop NONE = new WritesAfterStop(0, null);

  /**
   * Looks with a raw scan whose time range lets region servers skip every store file entirely older
   * than {@code end}: its cost is the recent writes', not the table's.
   */
  static WritesAfterStop find(JavaSparkContext sc, Configuration conf, TableName source, long end) {
    Scan scan = SourceReader.stampedFrom(end);
    sc.setJobGroup(
        "rekey-sync-stopped",
        "rekey sync --final: look for cells of " + source + " stamped at or after " + end,
        false);
    try {
      JavaRDD<String> rows =
          SourceReader.live(sc, conf, source, scan)
              .map(
                  t ->
                      Bytes.toStringBinary(t._2().getRow())
                          + " (stamped "
                          + t._2().rawCells()[0].getTimestamp()
                          + ")");
      long n = rows.count();
      return n == 0 ? NONE : new WritesAfterStop(n, rows.first());
    } finally {
      sc.clearJobGroup();
    }
  }

  /** The one line that refuses the switch. */
  String refusal(String source, long end) {
    return rows
        + " rows of "
        + source
        + " hold cells stamped at or after --writes-stopped-at "
        + Instant.ofEpochMilli(end)
        + " (first: "
        + first
        + "): writers have not stopped, and what they write is not in the target. Stop them, then"
        + " run 'rekey sync --final' again with --writes-stopped-at after their last write";
  }
}
