package io.rekey.cli;

import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.HadoopFiles;
import io.rekey.options.Location;
import io.rekey.spark.JobContext;
import io.rekey.spark.SparkSessions;
import java.io.IOException;
import java.io.PrintStream;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * What a running command may use besides its options: where to print and where HBase is.
 *
 * @param out the human summary goes here
 * @param err warnings
 * @param hbase the cluster
 * @param json where to write the JSON result (a local path or a Hadoop filesystem URI), null for
 *     none, {@code -} for {@code out}
 */
record CommandContext(PrintStream out, PrintStream err, HBaseSettings hbase, Location json) {
  /**
   * The job's Spark session, named {@code appName} unless the user named it, given what Spark's
   * HBase token provider needs on a Kerberized cluster ({@link HBaseSettings#sparkTokenSettings}),
   * and watched when Spark will not renew its tokens ({@link UnrenewedTokens}).
   */
  SparkSession spark(String appName) {
    SparkSession session = SparkSessions.getOrCreate(appName, hbase.sparkTokenSettings());
    UnrenewedTokens.watch(session.sparkContext(), err);
    return session;
  }

  /**
   * The Spark context of a job of {@code command} from {@code from} to {@code to}: its session
   * ({@link #spark}) named {@code hbase-rekey COMMAND FROM -> TO}.
   */
  JavaSparkContext sparkFor(String command, Object from, Object to) {
    return JavaSparkContext.fromSparkContext(
        spark("hbase-rekey " + command + " " + from + " -> " + to).sparkContext());
  }

  /** A job's part of a command: what it does with the job's context. */
  @FunctionalInterface
  interface JobBody {
    ExitCode run(JobContext job) throws Exception;
  }

  /**
   * Runs a job of {@code command} from {@code from} to {@code to}: opens the driver's connection to
   * HBase, starts the Spark context ({@link #sparkFor}) and hands both, with the settings, to
   * {@code body}; the connection is closed when the body returns or throws.
   */
  ExitCode runJob(String command, Object from, Object to, JobBody body) throws Exception {
    return runJob(() -> sparkFor(command, from, to), body);
  }

  /**
   * {@link #runJob(String, Object, Object, JobBody)} for a Spark application named {@code appName}.
   */
  ExitCode runJob(String appName, JobBody body) throws Exception {
    return runJob(() -> JavaSparkContext.fromSparkContext(spark(appName).sparkContext()), body);
  }

  private ExitCode runJob(Supplier<JavaSparkContext> spark, JobBody body) throws Exception {
    try (Connection connection = HBaseConnections.open(hbase)) {
      return body.run(new JobContext(spark.get(), connection, hbase.toConfiguration()));
    }
  }

  /** Prints the human text unless JSON goes to stdout, then writes the JSON if asked. */
  void emit(String humanText, Object result) {
    boolean jsonToStdout = json != null && json.toString().equals("-");
    if (jsonToStdout) {
      out.println(Json.toJson(result));
      return;
    }
    out.print(humanText);
    if (json != null) {
      try {
        HadoopFiles.write(
            json, Json.toJson(result) + System.lineSeparator(), hbase.toConfiguration());
      } catch (IOException e) {
        throw new RekeyException(
            "cannot write the JSON result to " + json + " (--json): " + e.getMessage(), e);
      }
      out.println("JSON result written to " + json);
    }
  }
}
