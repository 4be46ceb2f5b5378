package io.rekey.write;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Writes one partition's cells ({@link ShuffleCell} pairs, a row's cells next to each other) as
 * Puts through a buffered mutator, each cell with its own timestamp: for writes too small to be
 * worth a shuffle, HFiles and a bulk load. The task fails unless every cell was acknowledged.
 */
public final class PutWriterStage
    implements Function2<Integer, Iterator<Tuple2<byte[], byte[]>>, Iterator<WriteStats>> {
  private static final long serialVersionUID = 1L;
  private static final long WRITE_BUFFER = 8L << 20;

  private final String table;
  private final ShippedConfiguration conf;

  public PutWriterStage(String table, ShippedConfiguration conf) {
    this.table = table;
    this.conf = conf;
  }

  @Override
  public Iterator<WriteStats> call(Integer partition, Iterator<Tuple2<byte[], byte[]>> cells) {
    long count = 0;
    long bytes = 0;
    Connection c = ExecutorConnections.get(conf);
    try (BufferedMutator out =
        c.getBufferedMutator(
            new BufferedMutatorParams(TableName.valueOf(table)).writeBufferSize(WRITE_BUFFER))) {
      Put put = null;
      while (cells.hasNext()) {
        byte[] record = cells.next()._1();
        int rowLength = ShuffleCell.rowLength(record);
        if (put == null
            || Bytes.compareTo(
                    put.getRow(), 0, put.getRow().length, record, ShuffleCell.ROW_OFFSET, rowLength)
                != 0) {
          if (put != null) {
            out.mutate(put);
          }
          put = new Put(record, ShuffleCell.ROW_OFFSET, rowLength);
        }
        for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
          put.add(ShuffleCell.asKeyValue(record, at));
          count++;
        }
        bytes += record.length;
      }
      if (put != null) {
        out.mutate(put);
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write partition " + partition + " to " + table, e);
    }
    return List.of(new WriteStats(partition, count, bytes, List.of(), 0, List.of())).iterator();
  }
}
