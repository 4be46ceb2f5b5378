package io.rekey.bench;

import io.rekey.options.ReadMode;
import io.rekey.read.ReadOptions;
import io.rekey.read.SourceReader;
import io.rekey.read.TableRead;
import io.rekey.run.RunFiles;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The read floor: what any one-pass tool must pay before it does anything with a cell. A new
 * snapshot of the table, read through the same {@link TableRead} (same read tasks, same scan) as
 * the job it is the floor of, each task only counting its cells. Timed in the same run as the job.
 */
final class ReadFloor {
  private ReadFloor() {}

  /**
   * Counts the cells {@code scan} reads from a snapshot of {@code table}, recording the read's
   * settings under {@code settings}.
   */
  static long count(
      JavaSparkContext sc,
      Connection connection,
      Configuration conf,
      String table,
      Scan scan,
      Map<String, Object> record) {
    try (TableRead read =
        TableRead.open(
            sc,
            connection,
            conf,
            TableName.valueOf(table),
            scan,
            ReadMode.SNAPSHOT,
            RunFiles.staging(conf, null),
            "bench-floor")) {
      record.put("settings", readSettings(read, scan));
      return read.rows()
          .mapPartitions(
              rows -> {
                long n = 0;
                while (rows.hasNext()) {
                  n += rows.next()._2().size();
                }
                return List.of(n).iterator();
              })
          .reduce(Long::sum);
    }
  }

  /**
   * The floor as a benchmark method named {@code floor}: a full scan of {@code table} as rekey
   * ({@code raw} false) or the audit ({@code raw} true) reads it, in the default batch.
   */
  static Rounds.Method method(
      JavaSparkContext sc, Connection connection, Configuration conf, String table, boolean raw) {
    return method(
        sc,
        connection,
        conf,
        table,
        SourceReader.fullScan(ReadOptions.BATCH.defaultValue().intValue(), raw));
  }

  /** The floor of a job that reads with {@code scan}, as a benchmark method named {@code floor}. */
  static Rounds.Method method(
      JavaSparkContext sc, Connection connection, Configuration conf, String table, Scan scan) {
    return new Rounds.Method("floor", r -> count(sc, connection, conf, table, scan, r));
  }

  /** What a method's read was: its tasks and scan, so a reader of the JSON sees they are equal. */
  static Map<String, Object> readSettings(TableRead read, Scan scan) {
    return Map.of(
        "readTasks",
        read.rows().getNumPartitions(),
        "scan",
        "snapshot; batch "
            + scan.getBatch()
            + ", caching "
            + scan.getCaching()
            + ", raw "
            + scan.isRaw()
            + ", all versions "
            + (scan.getMaxVersions() == Integer.MAX_VALUE)
            + (scan.hasFamilies() ? ", columns " + scan.numFamilies() + " families" : ""));
  }
}
