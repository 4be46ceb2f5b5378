package io.rekey.hbase;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What one map task leaves in its run directory ({@code RUN/map/}): the rows it rejected, one line
 * each (reason, detail, key printable, key hex), and its counts. Both are written under temporary
 * names and renamed when the partition is done, so a retried task replaces what an earlier attempt
 * left and the driver can prove that the counts add up.
 */
public final class PartitionRecords {
  private final ShippedConfiguration conf;
  private final Path map;
  private final int partition;
  private OutputStream rejects;
  private Path rejectsTmp;

  public PartitionRecords(ShippedConfiguration conf, String runDir, int partition) {
    this.conf = conf;
    this.map = RunFiles.map(new Path(runDir));
    this.partition = partition;
  }

  /** Appends one rejected row. */
  public void reject(String reason, String detail, byte[] key) {
    try {
      if (rejects == null) {
        rejectsTmp = new Path(map, ".rejects-" + partition + ".tmp-" + System.nanoTime());
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
      Path rejectsFile = new Path(map, "rejects-" + partition + ".tsv");
      if (rejects != null) {
        rejects.close();
        RunFiles.replace(fs, rejectsTmp, rejectsFile);
      } else if (fs.exists(rejectsFile)) {
        fs.delete(rejectsFile, false);
      }
      RunFiles.writeAtomically(conf.get(), new Path(map, "stats-" + partition), countsLine);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the map stage's counts in " + map, e);
    }
  }
}
