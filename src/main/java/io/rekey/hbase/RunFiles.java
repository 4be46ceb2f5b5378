package io.rekey.hbase;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The layout of a run directory, on the cluster's filesystem:
 *
 * <pre>
 * RUN/manifest.json          what was planned, written and loaded (see RunManifest)
 * RUN/map/stats-N, rejects-N per input partition: counts, and rejected rows with their reasons
 * RUN/hfiles/FAMILY/...      HFiles waiting for the bulk load
 * RUN/tmp/...                files of task attempts in progress
 * </pre>
 *
 * Files of one task are written under a temporary name and renamed when complete, so a retried task
 * replaces, never adds to, what an earlier attempt left.
 */
public final class RunFiles {
  private RunFiles() {}

  public static Path map(Path run) {
    return new Path(run, "map");
  }

  public static Path hfiles(Path run) {
    return new Path(run, "hfiles");
  }

  public static Path tmp(Path run) {
    return new Path(run, "tmp");
  }

  public static Path manifest(Path run) {
    return new Path(run, "manifest.json");
  }

  /** Writes {@code text} to {@code file} through a temporary file and a rename. */
  public static void writeAtomically(Configuration conf, Path file, String text)
      throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    Path tmp = new Path(file.getParent(), "." + file.getName() + ".tmp-" + System.nanoTime());
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    replace(fs, tmp, file);
  }

  /** Renames {@code from} onto {@code to}, replacing it. */
  public static void replace(FileSystem fs, Path from, Path to) throws IOException {
    fs.mkdirs(to.getParent());
    if (fs.exists(to)) {
      fs.delete(to, false);
    }
    if (!fs.rename(from, to)) {
      throw new IOException("cannot rename " + from + " to " + to);
    }
  }
}
