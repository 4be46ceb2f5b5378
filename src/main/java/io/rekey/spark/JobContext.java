package io.rekey.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * What every job runs with: the Spark context, the driver's HBase connection and the job's HBase
 * and Hadoop settings. One argument instead of the same three everywhere; the caller owns (and
 * closes) the connection and the context.
 *
 * @param sc the Spark context the job's stages run on
 * @param connection the driver's connection to HBase
 * @param conf the settings the connection was made with, shipped to the executors
 */
public record JobContext(JavaSparkContext sc, Connection connection, Configuration conf) {}
