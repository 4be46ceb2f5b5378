package io.rekey.hbase;

import io.rekey.security.DelegationTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * One HBase connection per cluster per executor JVM, shared by the tasks that write or read through
 * the region servers. A connection takes a ZooKeeper round trip and a meta lookup to set up, which
 * a task writing a few thousand cells would otherwise pay every time. Writers retry less inside the
 * client than readers (they back off themselves), so the client's retry count is part of what tells
 * two connections apart. Closed when the JVM exits; tasks must not close it.
 */
public final class ExecutorConnections {
  private static final Map<String, Connection> OPEN = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (Connection c : OPEN.values()) {
                    try {
                      c.close();
                    } catch (IOException ignored) {
                      // The JVM is going away.
                    }
                  }
                }));
  }

  private ExecutorConnections() {}

  /** The shared connection to the cluster {@code conf} names. */
  public static Connection get(ShippedConfiguration conf) {
    return get(conf.get());
  }

  /**
   * The shared connection, behind a view whose {@code close()} does nothing: for code that closes
   * the connection it is given (HBase's TableInputFormat closes it after every split).
   */
  public static Connection unclosable(Configuration conf) {
    Connection shared = get(conf);
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close") && method.getParameterCount() == 0) {
                return null;
              }
              try {
                return method.invoke(shared, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** The shared connection to the cluster {@code c} names. */
  public static Connection get(Configuration c) {
    if (DelegationTokens.expired()) {
      // A job whose tokens nothing renews: fail the task in words HopelessFailureStop knows, not
      // after the client's minutes of retries.
      throw new UncheckedIOException(DelegationTokens.expiredError());
    }
    String cluster =
        c.get(HConstants.ZOOKEEPER_QUORUM)
            + "|"
            + c.get(HConstants.ZOOKEEPER_CLIENT_PORT)
            + "|"
            + c.get(HConstants.ZOOKEEPER_ZNODE_PARENT)
            + "|retries="
            + c.get(HConstants.HBASE_CLIENT_RETRIES_NUMBER)
            // HBase's client keeps the token a connection to a server began with, and offers it
            // again when that connection reconnects: once Spark renews the job's HBase token, new
            // tasks take a new connection. (The old one serves its tasks and closes at exit; Spark
            // renews at most a few times a day on a cluster with the default token lifetimes.)
            + "|token="
            + DelegationTokens.hbaseTokenStamp();
    return OPEN.compute(
        cluster,
        (k, open) -> {
          if (open != null && !open.isClosed()) {
            return open;
          }
          try {
            return ConnectionFactory.createConnection(c);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to HBase (" + k + ")", e);
          }
        });
  }
}
