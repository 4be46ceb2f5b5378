package io.rekey.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * What every job runs with: the Spark context, the driver's HBase connection, the job's HBase and
 * Hadoop settings, and the faults a test injects. One argument instead of the same four everywhere;
 * the caller owns (and closes) the connection and the context.
 *
 * @param sc the Spark context the job's stages run on
 * @param connection the driver's connection to HBase
 * @param conf the settings the connection was made with, shipped to the executors
 * @param faults where a fault test breaks the job ({@link Faults#NONE} outside tests)
 */
public record JobContext(
    JavaSparkContext sc, Connection connection, Configuration conf, Faults faults) {
  /** A job with no injected faults. */
  public JobContext(JavaSparkContext sc, Connection connection, Configuration conf) {
    this(sc, connection, conf, Faults.NONE);
  }

  /** The same job, broken by {@code faults}. */
  public JobContext withFaults(Faults faults) {
    return new JobContext(sc, connection, conf, faults);
  }
}
