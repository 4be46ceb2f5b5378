package io.rekey.security;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A driver's HBase connection that follows the job's HBase delegation token: once Spark renews the
 * token, the next table, admin or mutator comes from a new connection underneath. HBase's client
 * authenticates a connection to a server once, with the token the user held when it opened it, and
 * offers that token again each time the connection reconnects (after an idle close, say); past the
 * old token's life every call through it fails, and the client retries it for many minutes. The
 * connections it replaced stay open, for the tables and admins still using them, until this one
 * closes.
 *
 * <p>When the job's tokens have expired and nothing renews them (a job without a keytab), the next
 * call fails at once with {@link DelegationTokens#expiredError()} rather than after the client's
 * retries. Without delegation tokens (no Kerberos, or a JVM that logs in itself) it is one plain
 * connection.
 */
public final class TokenFollowingConnection implements InvocationHandler {
  private final Configuration conf;
  private final List<Connection> replaced = new ArrayList<>();
  private Connection current;
  private String token;
  private boolean closed;

  private TokenFollowingConnection(Configuration conf) {
    this.conf = conf;
  }

  /** Opens the first connection underneath now, so that a cluster that is not there says so. */
  public static Connection open(Configuration conf) throws IOException {
    TokenFollowingConnection handler = new TokenFollowingConnection(conf);
    handler.connection();
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "close":
        if (method.getParameterCount() == 0) {
          close();
          return null;
        }
        break;
      case "isClosed":
        return isClosed();
      case "getConfiguration":
        return conf;
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "connection following the HBase token " + token;
      default:
        break;
    }
    try {
      return method.invoke(connection(), args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private synchronized Connection connection() throws IOException {
    if (closed) {
      throw new IOException("the connection to HBase is closed");
    }
    if (DelegationTokens.expired()) {
      throw DelegationTokens.expiredError();
    }
    String now = DelegationTokens.hbaseTokenStamp();
    if (current == null || !now.equals(token)) {
      Connection next = ConnectionFactory.createConnection(conf);
      if (current != null) {
        replaced.add(current);
      }
      current = next;
      token = now;
    }
    return current;
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  private synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException first = null;
    replaced.add(current);
    for (Connection c : replaced) {
      try {
        c.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    replaced.clear();
    if (first != null) {
      throw first;
    }
  }
}
