package io.rekey.spark;

import io.rekey.common.RekeyException;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session of a job: the one spark-submit configured, named after the job, with Kryo for
 * the shuffle unless the user chose a serializer, the executors' log settings ({@link
 * ExecutorLogging}), and {@code local[*]} when no master is set at all (a plain {@code java} run).
 */
public final class SparkSessions {
  /** Spark's setting that drops input splits of length 0; it must be false for HBase input. */
  public static final String IGNORE_EMPTY_SPLITS = "spark.hadoopRDD.ignoreEmptySplits";

  /** The application's main class, which spark-submit takes as its name without {@code --name}. */
  static final String MAIN_CLASS = "io.rekey.cli.Main";

  static final String MAX_DIRECT_RESULT = "spark.task.maxDirectResultSize";

  private SparkSessions() {}

  /**
   * @param appName the application's name unless the user gave one: {@code hbase-rekey COMMAND
   *     TABLES}
   */
  public static SparkSession getOrCreate(String appName) {
    SparkConf conf = new SparkConf();
    if (!conf.contains("spark.master")) {
      conf.setMaster("local[*]");
    }
    // spark-submit names an application after its main class unless given --name: the job's
    // name (command and tables) says more in the cluster manager's list of applications.
    // In YARN cluster mode the launcher names it by the command alone (spark-submit names it
    // before the options are read): the driver's own name says more.
    if (!conf.contains("spark.app.name")
        || conf.get("spark.app.name").equals(MAIN_CLASS)
        || appName.startsWith(conf.get("spark.app.name"))) {
      conf.setAppName(appName);
    }
    String plugins = conf.get("spark.plugins", "");
    if (!plugins.contains(ExecutorLogging.class.getName())) {
      conf.set(
          "spark.plugins",
          (plugins.isBlank() ? "" : plugins + ",") + ExecutorLogging.class.getName());
    }
    // HBase's input splits report a length of 0 (snapshot splits always, table splits for
    // regions under 1 MB); Spark would silently skip them, and their rows, if this were true.
    conf.set(IGNORE_EMPTY_SPLITS, "false");
    if (!conf.contains(MAX_DIRECT_RESULT)) {
      // An audit task's result is one profile of a few megabytes. Above this size (1 MB by
      // default) Spark parks a result in the block manager and the driver fetches it in a second
      // step; under the RPC message limit (128 MB) it can come with the task's status.
      conf.set(MAX_DIRECT_RESULT, "64m");
    }
    if (!conf.contains("spark.serializer")) {
      conf.set("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
      conf.set("spark.kryo.registrator", KryoSetup.class.getName());
      if (!conf.contains("spark.kryo.referenceTracking")) {
        // What our stages move (byte arrays, pairs of them, Java-serialized results) has no
        // cycles nor shared parts, and tracking references cleared a map for every record.
        conf.set("spark.kryo.referenceTracking", "false");
      }
    }
    try {
      return SparkSession.builder().config(conf).getOrCreate();
    } catch (Exception e) { // Scala rethrows YARN's checked exceptions unsaid
      // An application the cluster manager refuses (a queue that does not exist, containers larger
      // than a node): its reason in one line, not a stack trace.
      throw new RekeyException(
          "Spark could not start the application on "
              + conf.get("spark.master")
              + ": "
              + rootCause(e)
              + ". Check the spark-submit options (--queue, --executor-memory, --driver-memory,"
              + " --executor-cores) against what the cluster allows",
          e);
    }
  }

  /** The innermost cause's message, its first line. */
  static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.toString() : root.getMessage();
    return message.strip().split("\n", 2)[0];
  }
}
