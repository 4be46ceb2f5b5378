package io.rekey.write;

import io.rekey.hbase.ShippedConfiguration;
import io.rekey.run.RunFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.TaskContext;

/**
 * What one map task leaves in its run directory ({@code RUN/map/}): the rows it rejected, one line
 * each (reason, detail, key printable, key hex), and its counts, so that the driver can prove that
 * the counts add up. Each task attempt writes under names of its own ({@code stats-N.tATTEMPT},
 * {@code rejects-N.tATTEMPT.tsv}), renamed from a temporary name when the partition is done: a
 * retried or speculative attempt never replaces or deletes another's. The driver keeps one complete
 * attempt's files per partition ({@link RunFiles#partitionCounts}).
 */
public final class PartitionRecords {
  private final ShippedConfiguration conf;
  private final Path map;
  private final int partition;
  private final String attempt;
  private OutputStream rejects;
  private Path rejectsTmp;

  public PartitionRecords(ShippedConfiguration conf, String runDir, int partition) {
    this.conf = conf;
    this.map = RunFiles.map(new Path(runDir));
    this.partition = partition;
    TaskContext task = TaskContext.get();
    this.attempt = "t" + (task == null ? System.nanoTime() : task.taskAttemptId());
  }

  /** Appends one rejected row. */
  public void reject(String reason, String detail, byte[] key) {
    try {
      if (rejects == null) {
        rejectsTmp = new Path(map, ".rejects-" + partition + "." + attempt + ".tmp");
        rejects = rejectsTmp.getFileSystem(conf.get()).create(rejectsTmp, true);
      }
      String line =
          reason
              + "\t"
              + detail.replace('\t', ' ').replace('\n', ' ')
              + "\t"
              + Bytes.toStringBinary(key)
              + "\t"
              + HexFormat.of().formatHex(key)
              + "\n";
      rejects.write(line.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the rejects file in " + map, e);
    }
  }

  /** Publishes the rejects (or removes an earlier attempt's) and writes the partition's counts. */
  public void finish(String countsLine) {
    try {
      FileSystem fs = map.getFileSystem(conf.get());
      if (rejects != null) {
        rejects.close();
        Path rejectsFile = new Path(map, "rejects-" + partition + "." + attempt + ".tsv");
        if (!fs.rename(rejectsTmp, rejectsFile)) {
          throw new IOException("cannot rename " + rejectsTmp + " to " + rejectsFile);
        }
      }
      // The counts last: a stats file says this attempt's rejects file is complete.
      RunFiles.writeAtomically(
          conf.get(), new Path(map, "stats-" + partition + "." + attempt), countsLine);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the map stage's counts in " + map, e);
    }
  }
}
