package io.rekey.cli;

import io.rekey.security.DelegationTokens;
import io.rekey.spark.HopelessFailureStop;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * A job on a Kerberized cluster whose delegation tokens Spark will not renew: one started without a
 * keytab (from a ticket cache, or in a container with the tokens it was given). It is told at the
 * start when its first token expires, and the first task an expired token fails stops the job at
 * once, where Spark would retry it to no avail.
 */
final class UnrenewedTokens {
  private UnrenewedTokens() {}

  static void watch(SparkContext sc, PrintStream err) {
    if (!UserGroupInformation.isSecurityEnabled() || renewed(sc.getConf())) {
      return;
    }
    Optional<Instant> expiry = DelegationTokens.firstExpiry();
    if (expiry.isEmpty()) {
      return;
    }
    DelegationTokens.notRenewed();
    Duration left = Duration.between(Instant.now(), expiry.get());
    err.println(
        "warning: this job has no keytab, so Spark will not renew its HBase and HDFS delegation"
            + " tokens: the first expires at "
            + expiry.get()
            + " (in "
            + (left.toMinutes() >= 10 ? left.toMinutes() + " min" : left.toSeconds() + " s")
            + "), and a job still running then stops. Long jobs: spark-submit --principal "
            + DelegationTokens.user()
            + " --keytab FILE");
    sc.addSparkListener(new HopelessFailureStop(sc, DelegationTokens::words));
  }

  /** Whether Spark renews the tokens: from a keytab, or from a ticket cache the user renews. */
  static boolean renewed(SparkConf conf) {
    return conf.contains("spark.kerberos.keytab")
        || conf.contains("spark.yarn.keytab")
        || conf.get("spark.kerberos.renewal.credentials", "keytab").equals("ccache");
  }
}
