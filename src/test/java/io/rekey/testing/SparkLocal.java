package io.rekey.testing;

import io.rekey.spark.JobContext;
import io.rekey.spark.SparkSessions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * One local Spark (two cores, no UI) per test JVM, configured the way the jobs configure it. Its
 * master is {@code local[2,4]}: a failed task is tried up to four times, as on a cluster, so fault
 * tests can fail an attempt for real and see the retry.
 */
public final class SparkLocal {
  private static JavaSparkContext sc;

  private SparkLocal() {}

  public static synchronized JavaSparkContext context() {
    if (sc == null) {
      System.setProperty("spark.master", "local[2,4]");
      System.setProperty("spark.ui.enabled", "false");
      System.setProperty("spark.sql.shuffle.partitions", "4");
      System.setProperty("spark.driver.host", "127.0.0.1");
      SparkSession session = SparkSessions.getOrCreate("hbase-rekey-it");
      sc = JavaSparkContext.fromSparkContext(session.sparkContext());
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return sc;
  }

  /** A job on this JVM's local Spark, through {@code connection} with its settings. */
  public static JobContext job(Connection connection, Configuration conf) {
    return new JobContext(context(), connection, conf);
  }
}
