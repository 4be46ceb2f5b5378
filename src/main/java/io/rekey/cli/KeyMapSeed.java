package io.rekey.cli;

import io.rekey.common.RekeyException;
import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.keys.KeyInverse;
import io.rekey.keys.KeyReject;
import io.rekey.read.SourceReader;
import io.rekey.spark.JobContext;
import io.rekey.stream.endpoint.KeyMap;
import io.rekey.stream.endpoint.StreamSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * Seeds the {@link KeyMap} of a stream whose new key is bound to a column, before its peer ships
 * anything: one Spark job reads the target's row keys (one cell a row, no values), reads each back
 * to the source row it was made of ({@link io.rekey.keys.KeyMapping#rowsBack}) and records that the
 * row is held there. What the target holds is what the copy wrote, so the map starts where the rows
 * are, whatever their bound columns say since. A key map the same peer id left behind is removed
 * first.
 */
final class KeyMapSeed {
  private static final int EXAMPLES = 3;

  private KeyMapSeed() {}

  /**
   * Seeds the key map of stream {@code peerId}.
   *
   * @return the target rows recorded
   * @throws RekeyException naming the first few target rows that read back to no source row (a
   *     target that holds rows the copy did not write)
   */
  static long seed(JobContext job, StreamSettings settings, String peerId) throws IOException {
    Configuration target = settings.targetConfiguration(job.conf());
    clear(job, settings, peerId);
    Scan keys =
        new Scan()
            .setCacheBlocks(false)
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    LongAccumulator seeded = job.sc().sc().longAccumulator("key map rows seeded");
    LongAccumulator unread = job.sc().sc().longAccumulator("target rows read back to none");
    CollectionAccumulator<String> examples = job.sc().sc().collectionAccumulator("unread rows");
    KeyInverse back = settings.mapping().rowsBack();
    ShippedConfiguration shipped = new ShippedConfiguration(target);
    String fenceTable = settings.fenceTable().getNameAsString();
    job.sc().setJobGroup("stream", "stream: seed the key map from " + settings.target(), false);
    try {
      SourceReader.live(job.sc(), target, settings.target(), keys)
          .foreachPartition(
              rows -> {
                Connection c = ExecutorConnections.get(shipped);
                try (BufferedMutator out =
                    c.getBufferedMutator(org.apache.hadoop.hbase.TableName.valueOf(fenceTable))) {
                  while (rows.hasNext()) {
                    byte[] key = rows.next()._1().copyBytes();
                    try {
                      out.mutate(KeyMap.seed(peerId, back.oldKey(key), key));
                      seeded.add(1);
                    } catch (KeyReject e) {
                      unread.add(1);
                      if (unread.value() <= EXAMPLES) { // this task's count: a few per task
                        examples.add(Bytes.toStringBinary(key) + ": " + e.getMessage());
                      }
                    }
                  }
                }
              });
    } finally {
      job.sc().clearJobGroup();
    }
    List<String> missed = examples.value();
    if (unread.value() > 0) {
      throw new RekeyException(
          unread.value()
              + " row(s) of "
              + settings.target()
              + " do not read back to a source row, so the stream could never move or retire"
              + " them (first: "
              + String.join(" | ", missed.subList(0, Math.min(EXAMPLES, missed.size())))
              + "); delete them from the target, then start the stream again");
    }
    return seeded.value();
  }

  /** Removes what a stream of the same peer id recorded in the key map. */
  private static void clear(JobContext job, StreamSettings settings, String peerId)
      throws IOException {
    Configuration target = settings.targetConfiguration(job.conf());
    Connection c = ExecutorConnections.get(target);
    byte[] prefix = KeyMap.prefix(peerId);
    try (Table fence = c.getTable(settings.fenceTable());
        ResultScanner old =
            fence.getScanner(
                new Scan()
                    .setRowPrefixFilter(prefix)
                    .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter())))) {
      List<Delete> deletes = new ArrayList<>();
      for (Result r : old) {
        deletes.add(new Delete(r.getRow()));
        if (deletes.size() >= 1_000) {
          fence.delete(deletes);
          deletes.clear();
        }
      }
      fence.delete(deletes);
    }
  }
}
