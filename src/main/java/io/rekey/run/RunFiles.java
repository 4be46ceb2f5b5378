package io.rekey.run;

import io.rekey.common.RekeyException;
import io.rekey.options.InvalidOptionException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.security.UserGroupInformation;
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

  /** HBase's per-user temporary directory on the cluster's filesystem. */
  static final String FS_TMP_DIR = "hbase.fs.tmp.dir";

  private RunFiles() {}

  /**
   * The staging directory, qualified: {@code staging} when given; else the user's own directory on
   * the cluster's filesystem, {@code hbase.fs.tmp.dir/rekey} on the filesystem of {@code
   * hbase.rootdir} (HBase's per-user convention, {@code /user/USER/hbase-staging} by default),
   * where snapshots can be restored and HFiles bulk-loaded without a copy; with a local {@code
   * hbase.rootdir} (the local HBase), {@code rekey-staging} next to it.
   */
  public static Path staging(Configuration conf, String staging) {
    try {
      Path dir;
      if (staging != null) {
        dir = new Path(staging);
      } else {
        Path root = new Path(conf.get(HConstants.HBASE_DIR, "file:///tmp/hbase"));
        FileSystem rootFs = root.getFileSystem(conf);
        dir =
            "file".equals(rootFs.getScheme())
                ? new Path(root.getParent() == null ? root : root.getParent(), "rekey-staging")
                : rootFs.makeQualified(new Path(userTmpDir(conf), "rekey"));
      }
      return dir.getFileSystem(conf).makeQualified(dir);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot use the staging directory " + staging + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code hbase.fs.tmp.dir}, with HBase's default {@code /user/${user.name}/hbase-staging} taken
   * for the Hadoop user the job runs as (its Kerberos or proxy user), not the local account.
   */
  private static String userTmpDir(Configuration conf) throws IOException {
    String raw = conf.getRaw(FS_TMP_DIR);
    if (raw == null || raw.contains("${user.name}")) {
      String user = UserGroupInformation.getCurrentUser().getShortUserName();
      return (raw == null ? "/user/${user.name}/hbase-staging" : raw).replace("${user.name}", user);
    }
    return conf.get(FS_TMP_DIR);
  }

  /**
   * Refuses a staging directory the job cannot use, before it takes a snapshot or writes anything:
   * one on the driver's local disk while executors run elsewhere ({@code file:} with a master that
   * is not {@code local}), or one the job's user cannot create files in.
   *
   * @param sparkMaster the job's Spark master
   */
  public static void checkUsable(Configuration conf, Path staging, String sparkMaster) {
    if (!sparkMaster.startsWith("local") && "file".equals(staging.toUri().getScheme())) {
      throw new InvalidOptionException(
          "the staging directory "
              + staging
              + " is on the local disk, but the Spark master is "
              + sparkMaster
              + ": executors on other hosts would write their files where the driver and HBase"
              + " never see them. Give --staging a directory on the cluster's filesystem, the one"
              + " hbase.rootdir is on (e.g. hdfs://namenode:8020/user/"
              + System.getProperty("user.name")
              + "/hbase-staging/rekey)");
    }
    String user = "the job's user";
    try {
      user = UserGroupInformation.getCurrentUser().getShortUserName();
      FileSystem fs = staging.getFileSystem(conf);
      fs.mkdirs(staging);
      Path probe = new Path(staging, ".write-check-" + UUID.randomUUID());
      fs.create(probe, false).close();
      fs.delete(probe, false);
    } catch (IOException e) {
      throw new InvalidOptionException(
          "user "
              + user
              + " cannot write in the staging directory "
              + staging
              + " ("
              + String.valueOf(e.getMessage()).strip().split("\n", 2)[0]
              + "). Nothing was done. Give --staging a directory this user can write, on the"
              + " filesystem of hbase.rootdir, or have this one made writable");
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
