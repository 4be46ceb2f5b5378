package io.rekey.hbase;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.MasterNotRunningException;
import org.apache.hadoop.hbase.PleaseHoldException;
import org.apache.hadoop.hbase.ZooKeeperConnectionException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.ipc.CallTimeoutException;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;

/**
 * Tells an outage (HBase, ZooKeeper or the filesystem stopped answering) from a bug, so the
 * operator reads "HBase stopped answering; rerun" instead of a stack trace. It looks through an
 * exception's causes, and through the text Spark keeps of a failed task's exception (a task's
 * exception reaches the driver as a message, not as the object).
 */
public final class Outage {
  private static final Set<Class<? extends Throwable>> OUTAGES =
      Set.of(
          ConnectException.class,
          NoRouteToHostException.class,
          SocketTimeoutException.class,
          UnknownHostException.class,
          RetriesExhaustedException.class,
          CallTimeoutException.class,
          ServerNotRunningYetException.class,
          PleaseHoldException.class,
          MasterNotRunningException.class,
          ZooKeeperConnectionException.class,
          org.apache.hadoop.hbase.exceptions.ConnectionClosedException.class,
          org.apache.hadoop.hbase.NotServingRegionException.class,
          org.apache.hadoop.hbase.client.NoServerForRegionException.class,
          org.apache.zookeeper.KeeperException.ConnectionLossException.class,
          org.apache.zookeeper.KeeperException.SessionExpiredException.class);

  private Outage() {}

  /**
   * What stopped answering, in a few words, when {@code e} was caused by an outage; empty when it
   * looks like anything else.
   */
  public static Optional<String> cause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DoNotRetryIOException && !(t instanceof RetriesExhaustedException)) {
        continue;
      }
      for (Class<? extends Throwable> c : OUTAGES) {
        if (c.isInstance(t) || mentions(t, c)) {
          return Optional.of(c.getSimpleName() + ": " + firstLine(t.getMessage()));
        }
      }
    }
    return Optional.empty();
  }

  /** Spark keeps a failed task's exception as text in the SparkException's message. */
  private static boolean mentions(Throwable t, Class<? extends Throwable> c) {
    return t.getClass().getName().equals("org.apache.spark.SparkException")
        && t.getMessage() != null
        && t.getMessage().contains(c.getName());
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no message";
    }
    String line = message.strip().split("\n", 2)[0];
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }
}
