package io.rekey.read;

import io.rekey.hbase.ExecutorConnections;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.mapreduce.JobContext;

/**
 * HBase's TableInputFormat on the JVM's shared connection ({@link ExecutorConnections}) instead of
 * a new one for the split planning and for every task: setting a connection up costs a ZooKeeper
 * round trip and a meta lookup, which dominated short scans such as an incremental index run's.
 */
public final class SharedConnectionTableInputFormat extends TableInputFormat {
  @Override
  protected void initialize(JobContext context) throws IOException {
    initializeTable(
        ExecutorConnections.unclosable(getConf()), TableName.valueOf(getConf().get(INPUT_TABLE)));
  }
}
