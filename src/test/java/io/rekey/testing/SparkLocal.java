package io.rekey.testing;

import io.rekey.hbase.SparkSessions;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/** One local Spark (local[2], no UI) per test JVM, configured the way the jobs configure it. */
public final class SparkLocal {
  private static JavaSparkContext sc;

  private SparkLocal() {}

  public static synchronized JavaSparkContext context() {
    if (sc == null) {
      System.setProperty("spark.master", "local[2]");
      System.setProperty("spark.ui.enabled", "false");
      System.setProperty("spark.sql.shuffle.partitions", "4");
      System.setProperty("spark.driver.host", "127.0.0.1");
      SparkSession session = SparkSessions.getOrCreate("hbase-rekey-it");
      sc = JavaSparkContext.fromSparkContext(session.sparkContext());
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return sc;
  }
}
