package io.rekey.hbase;

import io.rekey.RekeyException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;

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

  /**
   * The staging directory, qualified: {@code staging} when given, else {@code rekey-staging} next
   * to {@code hbase.rootdir} (on the cluster's filesystem, where snapshots can be restored and
   * HFiles bulk-loaded without a copy).
   */
  public static Path staging(Configuration conf, String staging) {
    Path dir;
    if (staging != null) {
      dir = new Path(staging);
    } else {
      Path root = new Path(conf.get(HConstants.HBASE_DIR, "file:///tmp/hbase"));
      dir = new Path(root.getParent() == null ? root : root.getParent(), "rekey-staging");
    }
    try {
      return dir.getFileSystem(conf).makeQualified(dir);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot use the staging directory " + dir + ": " + e.getMessage(), e);
    }
  }

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
