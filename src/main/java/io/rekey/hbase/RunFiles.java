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
 * RUN/manifest.json          what was planned, written and loaded (rekey's RunManifest)
 * RUN/ledger.json            the committed HFiles and which are loaded (write.Ledger)
 * RUN/map/stats-N.tA, rejects-N.tA.tsv   per input partition and task attempt A: counts, and
 *                            rejected rows with their reasons (one attempt per partition is kept)
 * RUN/hfiles/FAMILY/...      HFiles the driver committed, waiting for the bulk load
 * RUN/tmp/pN-aK-tA/...       each writer task attempt's own files, until the driver commits them
 * </pre>
 *
 * No task renames onto, or deletes, a name another attempt could use: what a retried or speculative
 * attempt leaves is told apart from the accepted attempt's by its directory or suffix.
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

  /**
   * Renames {@code from} onto {@code to}, replacing it. Not atomic (exists, delete, rename): only
   * for files the driver alone writes. Task attempts never replace a shared name; see the class
   * comment.
   */
  private static void replace(FileSystem fs, Path from, Path to) throws IOException {
    fs.mkdirs(to.getParent());
    if (fs.exists(to)) {
      fs.delete(to, false);
    }
    if (!fs.rename(from, to)) {
      throw new IOException("cannot rename " + from + " to " + to);
    }
  }

  /**
   * The counts line of each map task ({@code RUN/map/stats-N.tATTEMPT}), one per input partition.
   * Where several attempts of a task completed (a retry after a lost executor, a speculative copy),
   * their counts must agree, since they read the same snapshot; one attempt's counts and rejects
   * are kept and the others' files are deleted, so the rejects glob lists each rejected row once.
   *
   * @throws RekeyException when not every input partition left its counts, or two attempts of one
   *     partition counted differently (a live scan whose rows changed between them)
   */
  public static List<String> partitionCounts(Configuration conf, Path run, int partitions)
      throws IOException {
    Path map = map(run);
    FileSystem fs = map.getFileSystem(conf);
    java.util.TreeMap<Integer, java.util.TreeMap<String, String>> byPartition =
        new java.util.TreeMap<>();
    for (FileStatus f : fs.listStatus(map, p -> p.getName().startsWith("stats-"))) {
      String[] name = f.getPath().getName().substring("stats-".length()).split("\\.", 2);
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
        byPartition
            .computeIfAbsent(Integer.parseInt(name[0]), k -> new java.util.TreeMap<>())
            .put(name.length > 1 ? name[1] : "", in.readLine());
      }
    }
    if (byPartition.size() != partitions) {
      throw new RekeyException(
          "the map stage left counts for "
              + byPartition.size()
              + " of "
              + partitions
              + " input partitions in "
              + map
              + "; nothing was loaded. Run again");
    }
    List<String> lines = new ArrayList<>();
    for (var partition : byPartition.entrySet()) {
      var attempts = partition.getValue();
      String kept = attempts.firstKey();
      String line = attempts.get(kept);
      for (var other : attempts.entrySet()) {
        if (!other.getValue().equals(line)) {
          throw new RekeyException(
              "two attempts of map task "
                  + partition.getKey()
                  + " counted differently ("
                  + line
                  + " and "
                  + other.getValue()
                  + "): the rows read changed between them, as a live scan's can; nothing was"
                  + " loaded. Run again, from a snapshot for a point-in-time copy");
        }
        if (!other.getKey().equals(kept)) {
          String suffix = partition.getKey() + "." + other.getKey();
          fs.delete(new Path(map, "stats-" + suffix), false);
          fs.delete(new Path(map, "rejects-" + suffix + ".tsv"), false);
        }
      }
      lines.add(line);
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
