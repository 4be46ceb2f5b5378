package io.rekey.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real HBase mini cluster (ZooKeeper, HDFS, master, one region server) per test JVM, started by
 * the first IT that asks for it and stopped when JUnit finishes. ITs use it with
 * {@code @ExtendWith(MiniHBase.class)} and {@link #util()}.
 */
public final class MiniHBase implements BeforeAllCallback {
  private static HBaseTestingUtility util;
  private static final AtomicInteger TABLES = new AtomicInteger();

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    synchronized (MiniHBase.class) {
      if (util != null) {
        return;
      }
      HBaseTestingUtility started = new HBaseTestingUtility();
      Configuration conf = started.getConfiguration();
      // The web UIs need reflection JDK 17 refuses without flags, and no test looks at them.
      conf.setInt("hbase.master.info.port", -1);
      conf.setInt("hbase.regionserver.info.port", -1);
      // 18 retries at the tests' 20-ms pause (src/test/resources/hbase-site.xml) wait as long in
      // all as 10 at HBase's 100 ms did: 38 s.
      conf.setInt("hbase.client.retries.number", 18);
      // A snapshot's master lock can lose its wake-up in HBase 2.5 and then blocks snapshots of
      // the table until it times out (10 minutes by default); see jobs/hbase-local.sh.
      conf.setInt("hbase.master.procedure.local.master.locks.timeout.ms", 60_000);
      // A region server a test aborts (RegionServerRestartIT) may never finish shutting down in a
      // mini cluster; after hbase.regionserver.abort.timeout (20 minutes) HBase then ends the whole
      // JVM, and with it every test still to run in this fork (the long tier runs for longer).
      conf.setLong("hbase.regionserver.abort.timeout", TimeUnit.DAYS.toMillis(7));
      // A live server claims a dead one's replication queues one peer at a time, each after a
      // pause of 30 to 60 s (replication.sleep.before.failover, for a cluster that may be shutting
      // down): StreamFailoverIT's three streams waited 3 minutes for it. The claims are the same.
      conf.setLong("replication.sleep.before.failover", 1_000);
      started.startMiniCluster(1);
      util = started;
      context
          .getRoot()
          .getStore(ExtensionContext.Namespace.GLOBAL)
          .put(
              MiniHBase.class.getName(),
              (ExtensionContext.Store.CloseableResource) MiniHBase::stop);
    }
  }

  private static void stop() throws Exception {
    synchronized (MiniHBase.class) {
      if (util != null) {
        util.shutdownMiniCluster();
        util = null;
      }
    }
  }

  public static HBaseTestingUtility util() {
    if (util == null) {
      throw new IllegalStateException("annotate the test class with @ExtendWith(MiniHBase.class)");
    }
    return util;
  }

  /** {@code 127.0.0.1:PORT} of the mini cluster's ZooKeeper, as {@code --zk} takes it. */
  public static String zkQuorum() {
    return "127.0.0.1:" + util().getZkCluster().getClientPort();
  }

  /**
   * Settings a job uses to reach the mini cluster: its quorum, and its root directory and
   * filesystem (which snapshot reads and bulk loads need and no hbase-site.xml carries here).
   */
  public static io.rekey.hbase.HBaseSettings settings() {
    Configuration c = util().getConfiguration();
    return new io.rekey.hbase.HBaseSettings(
        zkQuorum(),
        null,
        java.util.Map.of(
            "hbase.rootdir", c.get("hbase.rootdir"), "fs.defaultFS", c.get("fs.defaultFS")));
  }

  /** A table name no other test uses, in namespace {@code default}. */
  public static TableName uniqueTable(String prefix) {
    return TableName.valueOf(prefix + "_" + TABLES.incrementAndGet());
  }
}
