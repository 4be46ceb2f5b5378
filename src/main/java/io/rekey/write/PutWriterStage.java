package io.rekey.write;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Writes one partition's cells ({@link ShuffleCell} pairs, a row's cells next to each other) as
 * Puts (and Deletes, for delete markers) through a buffered mutator, each cell with its own
 * timestamp and type: for writes too small to be worth a shuffle, HFiles and a bulk load. The task
 * fails unless every cell was acknowledged. It keeps to the throttle's write rate and backs off
 * when the region servers answer busy ({@link PacedMutator}).
 */
public final class PutWriterStage
    implements Function2<Integer, Iterator<Tuple2<byte[], byte[]>>, Iterator<WriteStats>> {
  private static final long serialVersionUID = 1L;
  private final String table;
  private final ShippedConfiguration conf;

  /**
   * @param conf the job's settings; the writers connect with fewer client retries of their own
   *     ({@link PacedMutator#writerConf}), so busy answers reach the back-off
   */
  public PutWriterStage(String table, ShippedConfiguration conf) {
    this.table = table;
    this.conf = new ShippedConfiguration(PacedMutator.writerConf(conf.get()));
  }

  @Override
  public Iterator<WriteStats> call(Integer partition, Iterator<Tuple2<byte[], byte[]>> cells) {
    long count = 0;
    long bytes = 0;
    Connection c = ExecutorConnections.get(conf);
    try (PacedMutator out = new PacedMutator(c, table, conf.get())) {
      // One Put and one Delete per row: a sync carries delete markers (every kind, with their
      // timestamps), which HBase takes only in a Delete. Both keep each cell's own timestamp, so
      // which of the two is applied first (or sent again after a busy answer) does not change what
      // a read sees.
      byte[] row = null;
      Put put = null;
      Delete delete = null;
      while (cells.hasNext()) {
        byte[] record = cells.next()._1();
        int rowLength = ShuffleCell.rowLength(record);
        if (row == null
            || Bytes.compareTo(row, 0, row.length, record, ShuffleCell.ROW_OFFSET, rowLength)
                != 0) {
          send(out, put, delete);
          row =
              Arrays.copyOfRange(
                  record, ShuffleCell.ROW_OFFSET, ShuffleCell.ROW_OFFSET + rowLength);
          put = null;
          delete = null;
        }
        for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
          KeyValue cell = ShuffleCell.asKeyValue(record, at);
          if (CellUtil.isDelete(cell)) {
            delete = delete == null ? new Delete(row) : delete;
            delete.add(cell);
          } else {
            put = put == null ? new Put(row) : put;
            put.add(cell);
          }
          count++;
        }
        bytes += record.length;
      }
      send(out, put, delete);
      out.flush();
      return List.of(
              new WriteStats(
                  partition,
                  count,
                  bytes,
                  List.of(),
                  0,
                  List.of(),
                  out.busyAnswers(),
                  out.backoffMillis()))
          .iterator();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write partition " + partition + " to " + table, e);
    }
  }

  private static void send(PacedMutator out, Put put, Delete delete) throws IOException {
    if (put != null) {
      out.send(put, put.size());
    }
    if (delete != null) {
      out.send(delete, delete.size());
    }
  }
}
