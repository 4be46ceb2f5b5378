package io.rekey.hbase;

import io.rekey.common.DeployMode;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.Location;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Files a user names ({@link Location}): job files read, results and reports written, on this
 * host's filesystem or any Hadoop filesystem ({@code hdfs://}, {@code s3a://}), so a driver in a
 * YARN container reads and writes where the user can reach.
 */
public final class HadoopFiles {
  private HadoopFiles() {}

  /**
   * Reads a job file ({@code --job-file}, {@code --def}): its options for {@code command}.
   *
   * @throws InvalidOptionException naming the option and the file when it is missing or unreadable
   *     (in a YARN cluster-mode driver, saying how to ship it)
   */
  public static OptionValues readJobFile(
      Location file, String option, String command, List<OptionDef<?>> declared) {
    try (Reader in = open(file)) {
      return OptionValues.fromProperties(file.toString(), in, command, declared, option);
    } catch (FileNotFoundException | NoSuchFileException e) {
      throw new InvalidOptionException(
          "--"
              + option
              + " is '"
              + file
              + "' but that file does not exist"
              + (DeployMode.yarnClusterDriver(System.getProperties()) && file.isLocal()
                  ? " on this YARN container's host (the driver runs in the cluster, not where"
                      + " spark-submit ran): ship it with spark-submit --files "
                      + file
                      + " and name it --"
                      + option
                      + " "
                      + file.local().getFileName()
                      + ", or give an hdfs:// path"
                  : "; give the path of a job file"));
    } catch (IOException e) {
      throw new InvalidOptionException(
          "--" + option + " is '" + file + "' but it cannot be read: " + e.getMessage());
    }
  }

  private static Reader open(Location file) throws IOException {
    if (file.isLocal()) {
      return Files.newBufferedReader(file.local(), StandardCharsets.UTF_8);
    }
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.text());
    return new InputStreamReader(
        path.getFileSystem(new Configuration()).open(path), StandardCharsets.UTF_8);
  }

  /**
   * Writes {@code text} to {@code file}, creating its directory, so a reader sees the old content
   * or the whole new one: written beside it, then moved over it.
   *
   * @param conf the Hadoop settings for a filesystem URI (its cluster's core-site and hdfs-site)
   */
  public static void write(Location file, String text, Configuration conf) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (file.isLocal()) {
      Path local = file.local().toAbsolutePath();
      Files.createDirectories(local.getParent());
      Path tmp = local.resolveSibling(local.getFileName() + ".tmp");
      Files.write(tmp, bytes);
      Files.move(tmp, local, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return;
    }
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.text());
    FileSystem fs = path.getFileSystem(conf);
    org.apache.hadoop.fs.Path tmp =
        new org.apache.hadoop.fs.Path(path.getParent(), path.getName() + ".tmp");
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(bytes);
    }
    // A rename does not replace on HDFS.
    fs.delete(path, false);
    if (!fs.rename(tmp, path)) {
      throw new IOException("cannot move " + tmp + " to " + path);
    }
  }
}
