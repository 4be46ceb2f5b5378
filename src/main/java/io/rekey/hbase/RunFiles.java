package io.rekey.hbase;

import io.rekey.RekeyException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(RunFiles.class);

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

  /**
   * The counts line each map task left ({@code RUN/map/stats-N}).
   *
   * @throws RekeyException when not every input partition left its counts
   */
  public static List<String> partitionCounts(Configuration conf, Path run, int partitions)
      throws IOException {
    Path map = map(run);
    FileSystem fs = map.getFileSystem(conf);
    List<String> lines = new ArrayList<>();
    for (FileStatus f : fs.listStatus(map, p -> p.getName().startsWith("stats-"))) {
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
        lines.add(in.readLine());
      }
    }
    if (lines.size() != partitions) {
      throw new RekeyException(
          "the map stage left counts for "
              + lines.size()
              + " of "
              + partitions
              + " input partitions in "
              + map
              + "; nothing was loaded. Run again");
    }
    return lines;
  }

  /** Where the rejected rows are, as a glob a person can list. */
  public static String rejectsGlob(Path run) {
    return new Path(map(run), "rejects-*.tsv").toString();
  }

  /** The first {@code limit} lines of the rejects files, or fewer; empty when unreadable. */
  public static List<String> rejectExamples(Configuration conf, Path run, int limit) {
    List<String> out = new ArrayList<>();
    try {
      Path map = map(run);
      FileSystem fs = map.getFileSystem(conf);
      for (FileStatus f : fs.listStatus(map, p -> p.getName().startsWith("rejects-"))) {
        try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
          String line;
          while (out.size() < limit && (line = in.readLine()) != null) {
            out.add(line);
          }
        }
        if (out.size() >= limit) {
          break;
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot read reject examples in {}: {}", run, e.getMessage());
    }
    return out;
  }
}
