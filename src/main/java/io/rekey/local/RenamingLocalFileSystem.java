package io.rekey.local;

import io.rekey.hbase.ShellFreeLocalFileSystem;

/**
 * The local filesystem as the local HBase ({@code jobs/hbase-local.sh}) runs it, so that a bulk
 * load moves HFiles by rename as it does on HDFS.
 *
 * <p>HBase decides whether a bulk-loaded file is on the store's own filesystem by comparing the two
 * filesystems' canonical service names ({@code FSUtils.isSameHdfs}); Hadoop's local filesystem has
 * none, so on {@code file://} the region server copied every file twice (into its bulk-load staging
 * directory, then into the store) instead of renaming it. Naming the local filesystem makes a local
 * bulk load cost what it costs on a cluster. Set only in the local HBase's own JVM ({@code
 * fs.file.impl}); clients use {@link ShellFreeLocalFileSystem}, which it extends: the region
 * server's flushes, compactions and bulk loads create files too.
 */
public class RenamingLocalFileSystem extends ShellFreeLocalFileSystem {
  /** One name for every instance: there is one local filesystem. */
  @Override
  public String getCanonicalServiceName() {
    return "file:///";
  }
}
