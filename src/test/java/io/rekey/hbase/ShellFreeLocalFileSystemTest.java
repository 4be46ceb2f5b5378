package io.rekey.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShellFreeLocalFileSystemTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void everyPermissionMapsToTheSamePosixBits() {
    for (short mode = 0; mode <= 0777; mode++) {
      FsPermission p = new FsPermission(mode);
      // FsPermission prints rwxr-x--- without the leading type character, as PosixFilePermissions
      // parses it.
      assertEquals(
          PosixFilePermissions.fromString(p.toString()),
          ShellFreeLocalFileSystem.posix(p),
          "mode " + Integer.toOctalString(mode));
    }
  }

  @Test
  void jobConfigurationsUseItAndFilesGetTheirPermissions() throws Exception {
    Configuration conf = new HBaseSettings(null, null, Map.of()).toConfiguration();
    conf.set("fs.permissions.umask-mode", "027");
    try (FileSystem fs = FileSystem.newInstance(dir.toUri(), conf)) {
      assertInstanceOf(ShellFreeLocalFileSystem.class, fs);
      Path nested = new Path(dir.toUri().toString(), "a/b/c");
      fs.mkdirs(nested, new FsPermission((short) 0755));
      try (FSDataOutputStream out = fs.create(new Path(nested, "file"))) {
        out.writeUTF("x");
      }
      assertEquals("rwxr-x---", mode(dir.resolve("a")), "mkdirs: 0755 under umask 027");
      assertEquals("rwxr-x---", mode(dir.resolve("a/b/c")), "mkdirs: 0755 under umask 027");
      assertEquals("rw-r-----", mode(dir.resolve("a/b/c/file")), "created: 0666 under 027");
      assertEquals("rw-r-----", mode(dir.resolve("a/b/c/.file.crc")), "its checksum file too");
      fs.setPermission(new Path(nested, "file"), new FsPermission((short) 0604));
      assertEquals("rw----r--", mode(dir.resolve("a/b/c/file")), "set explicitly");
    }
  }

  @Test
  void aSiteSettingForFileSystemsWins() {
    Configuration conf =
        new HBaseSettings(
                null,
                null,
                Map.of(ShellFreeLocalFileSystem.IMPL_KEY, "org.apache.hadoop.fs.LocalFileSystem"))
            .toConfiguration();
    assertEquals(
        "org.apache.hadoop.fs.LocalFileSystem", conf.get(ShellFreeLocalFileSystem.IMPL_KEY));
  }

  private static String mode(java.nio.file.Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
