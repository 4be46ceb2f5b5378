package io.rekey.hbase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.nativeio.NativeIO;

/**
 * Hadoop's local filesystem, setting permissions through java.nio instead of a {@code chmod}
 * process.
 *
 * <p>Without Hadoop's native library (most Spark and HBase downloads ship without it), the local
 * filesystem starts a {@code chmod} for every file it creates (twice: the file and its checksum
 * file) and for every directory level it makes. An index build on the local HBase started about 80
 * such processes in its tasks and 17 more while restoring its snapshot, each a fork of a JVM of
 * several gigabytes: about half the time its tasks took was spent off the CPU. With the native
 * library, or for a permission java.nio cannot express (a sticky bit), Hadoop's own way is used.
 */
public class ShellFreeLocalFileSystem extends LocalFileSystem {
  /** The setting that names the filesystem class for {@code file:} paths. */
  public static final String IMPL_KEY = "fs.file.impl";

  public ShellFreeLocalFileSystem() {
    super(new Raw());
  }

  /** The raw (checksum-less) local filesystem underneath, with the nio permission change. */
  static final class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      if (NativeIO.isAvailable() || permission.getStickyBit()) {
        super.setPermission(p, permission);
        return;
      }
      try {
        Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(permission));
      } catch (UnsupportedOperationException notPosix) {
        super.setPermission(p, permission);
      }
    }
  }

  /** The nine permission bits as java.nio names them. */
  static Set<PosixFilePermission> posix(FsPermission permission) {
    Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
    add(
        out,
        permission.getUserAction(),
        PosixFilePermission.OWNER_READ,
        PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE);
    add(
        out,
        permission.getGroupAction(),
        PosixFilePermission.GROUP_READ,
        PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_EXECUTE);
    add(
        out,
        permission.getOtherAction(),
        PosixFilePermission.OTHERS_READ,
        PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_EXECUTE);
    return out;
  }

  private static void add(
      Set<PosixFilePermission> out,
      FsAction action,
      PosixFilePermission read,
      PosixFilePermission write,
      PosixFilePermission execute) {
    if (action.implies(FsAction.READ)) {
      out.add(read);
    }
    if (action.implies(FsAction.WRITE)) {
      out.add(write);
    }
    if (action.implies(FsAction.EXECUTE)) {
      out.add(execute);
    }
  }
}
