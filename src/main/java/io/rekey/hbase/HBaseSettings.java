package io.rekey.hbase;

import io.rekey.options.InvalidOptionException;
import io.rekey.security.KerberosSetup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * Where the HBase cluster is: a ZooKeeper quorum given with {@code --zk}, a configuration directory
 * (holding {@code hbase-site.xml}) given with {@code --hbase-conf} or {@code $HBASE_CONF_DIR}, or
 * neither (then {@code hbase-site.xml} on the classpath, as HBase itself does). {@code --zk} wins
 * over the directory's quorum.
 *
 * @param zkQuorum {@code host:port[,host:port…]}, or null
 * @param confDir a directory with {@code hbase-site.xml}, or null
 * @param properties single settings on top ({@code --hbase-set key=value}), applied last
 */
public record HBaseSettings(String zkQuorum, Path confDir, Map<String, String> properties) {
  /** The option name for the quorum, for messages. */
  public static final String ZK_OPTION = "zk";

  public HBaseSettings(String zkQuorum, Path confDir) {
    this(zkQuorum, confDir, Map.of());
  }

  public HBaseSettings {
    properties = Map.copyOf(properties);
    if (zkQuorum != null) {
      parseQuorum(zkQuorum);
    }
    if (confDir != null && !Files.isRegularFile(confDir.resolve("hbase-site.xml"))) {
      throw InvalidOptionException.of(
          "hbase-conf",
          confDir.toString(),
          "holds no hbase-site.xml; give the directory with the cluster's hbase-site.xml"
              + " (for the local HBase: var/conf after jobs/hbase-local.sh start)");
    }
  }

  /** A ZooKeeper server: host and client port. */
  public record ZkServer(String host, int port) {}

  /**
   * Splits {@code host:port[,host:port…]} (port 2181 when left out).
   *
   * @throws InvalidOptionException naming the bad part
   */
  public static List<ZkServer> parseQuorum(String quorum) {
    List<ZkServer> servers = new ArrayList<>();
    for (String part : quorum.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        throw InvalidOptionException.of(
            ZK_OPTION, quorum, "has an empty server; write host:port[,host:port...]");
      }
      int colon = p.lastIndexOf(':');
      String host = colon < 0 ? p : p.substring(0, colon);
      int port = 2181;
      if (colon >= 0) {
        try {
          port = Integer.parseInt(p.substring(colon + 1));
        } catch (NumberFormatException e) {
          port = -1;
        }
        if (port < 1 || port > 65535) {
          throw InvalidOptionException.of(
              ZK_OPTION, quorum, "has port '" + p.substring(colon + 1) + "'; use 1..65535");
        }
      }
      if (host.isEmpty()) {
        throw InvalidOptionException.of(ZK_OPTION, quorum, "has a server without a host name");
      }
      servers.add(new ZkServer(host, port));
    }
    return List.copyOf(servers);
  }

  /** These settings with {@code defaults} added beneath the single settings already given. */
  public HBaseSettings withDefaults(Map<String, String> defaults) {
    Map<String, String> merged = new java.util.LinkedHashMap<>(defaults);
    merged.putAll(properties);
    return new HBaseSettings(zkQuorum, confDir, merged);
  }

  /** The Hadoop configuration these settings describe. */
  public Configuration toConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    if (confDir != null) {
      for (String file : List.of("core-site.xml", "hdfs-site.xml", "hbase-site.xml")) {
        Path p = confDir.resolve(file);
        if (Files.isRegularFile(p)) {
          conf.addResource(new org.apache.hadoop.fs.Path(p.toUri()));
        }
      }
    }
    if (zkQuorum != null) {
      List<ZkServer> servers = parseQuorum(zkQuorum);
      List<String> hosts = new ArrayList<>();
      for (ZkServer s : servers) {
        hosts.add(s.host() + ":" + s.port());
      }
      conf.set("hbase.zookeeper.quorum", String.join(",", hosts));
      conf.setInt("hbase.zookeeper.property.clientPort", servers.get(0).port());
    }
    properties.forEach(conf::set);
    String localFs = conf.getTrimmed(ShellFreeLocalFileSystem.IMPL_KEY, "");
    if (localFs.isEmpty()) {
      // Staging, snapshot restores and run files on a local filesystem without a process per
      // file (ShellFreeLocalFileSystem); a site file or --hbase-set that names another class wins.
      conf.set(ShellFreeLocalFileSystem.IMPL_KEY, ShellFreeLocalFileSystem.class.getName());
    }
    KerberosSetup.apply(conf);
    return conf;
  }

  /**
   * On a Kerberized HBase, its client settings as Spark settings ({@code spark.hadoop.KEY}), for
   * Spark's HBase delegation token provider: it reads them from the Hadoop configuration Spark
   * builds, which holds an {@code hbase-site.xml} only when one is on the driver's classpath, and
   * {@code --hbase-conf} or {@code --hbase-set} are read by the tool alone. With the settings the
   * provider obtains (and with {@code --principal/--keytab} renews) the executors' HBase token.
   * Empty for a cluster without Kerberos.
   */
  public Map<String, String> sparkTokenSettings() {
    Configuration conf = toConfiguration();
    if (!"kerberos".equalsIgnoreCase(conf.get("hbase.security.authentication"))) {
      return Map.of();
    }
    Configuration defaults = HBaseConfiguration.create();
    Map<String, String> settings = new java.util.TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      String key = e.getKey();
      boolean client = key.startsWith("hbase.") || key.startsWith("zookeeper.");
      if (client && !java.util.Objects.equals(conf.get(key), defaults.get(key))) {
        settings.put("spark.hadoop." + key, conf.get(key));
      }
    }
    return settings;
  }

  /** How a person would describe where these settings point, for messages. */
  public String describe(Configuration conf) {
    String quorum = conf.get("hbase.zookeeper.quorum", "localhost");
    String port = conf.get("hbase.zookeeper.property.clientPort", "2181");
    String where = quorum.contains(":") ? quorum : quorum + " (port " + port + ")";
    if (zkQuorum != null) {
      return "ZooKeeper " + where + " (--zk)";
    }
    if (confDir != null) {
      return "ZooKeeper " + where + " (from " + confDir.resolve("hbase-site.xml") + ")";
    }
    return "ZooKeeper " + where + " (no --zk or --hbase-conf given)";
  }
}
