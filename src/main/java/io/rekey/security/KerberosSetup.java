package io.rekey.security;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Tells Hadoop's login machinery that the cluster named by {@code --hbase-conf} is Kerberized. UGI
 * reads its settings once, from the core-site.xml on the classpath; a cluster's configuration that
 * only {@code --hbase-conf} names would otherwise leave this JVM a SIMPLE user, and the HBase
 * client would never log in from {@code hbase.client.keytab.file} or use a ticket cache.
 */
public final class KerberosSetup {
  private KerberosSetup() {}

  /** Switches UGI to Kerberos when {@code conf} asks for it and UGI does not know yet. */
  public static synchronized void apply(Configuration conf) {
    if ("kerberos".equalsIgnoreCase(conf.get("hadoop.security.authentication"))
        && !UserGroupInformation.isSecurityEnabled()) {
      UserGroupInformation.setConfiguration(conf);
    }
  }
}
