package io.rekey.spark;

import io.rekey.common.RekeyException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

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
    return getOrCreate(appName, Map.of());
  }

  /**
   * @param appName the application's name unless the user gave one
   * @param defaults settings for Spark unless the user set them: the HBase client's, for Spark's
   *     HBase token provider on a Kerberized cluster
   */
  public static SparkSession getOrCreate(String appName, Map<String, String> defaults) {
    SparkConf conf = new SparkConf();
    defaults.forEach(
        (key, value) -> {
          if (!conf.contains(key)) {
            conf.set(key, value);
          }
        });
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
    YarnAdmission admission = clientModeOnYarn(conf) ? admission(conf) : null;
    if (admission == null) {
      return start(conf, null);
    }
    // Spark's client waits while YARN keeps the application ACCEPTED; the watch bounds that wait.
    AtomicLong watchUntil = new AtomicLong(Long.MAX_VALUE);
    CompletableFuture<Optional<String>> refusal =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return admission.await(() -> System.currentTimeMillis() < watchUntil.get());
              } catch (Exception e) {
                return Optional.empty(); // the watch is an aid: Spark's own wait goes on
              }
            });
    try {
      return start(conf, () -> waitFor(refusal, watchUntil));
    } finally {
      watchUntil.set(0);
    }
  }

  /**
   * Starts the session; a start the cluster manager refuses is one line: the watch's reason when
   * there is one, else the innermost cause.
   */
  private static SparkSession start(SparkConf conf, Supplier<Optional<String>> refusal) {
    try {
      return SparkSession.builder().config(conf).getOrCreate();
    } catch (Exception e) { // Scala rethrows YARN's checked exceptions unsaid
      Optional<String> reason = refusal == null ? Optional.empty() : refusal.get();
      throw new RekeyException(
          reason.orElseGet(
              () ->
                  "Spark could not start the application on "
                      + conf.get("spark.master")
                      + ": "
                      + rootCause(e).replaceAll("\\.+$", "")
                      + ". Check the spark-submit options (--queue, --executor-memory,"
                      + " --driver-memory, --executor-cores) against what the cluster allows"),
          e);
    }
  }

  private static boolean clientModeOnYarn(SparkConf conf) {
    return conf.get("spark.master").equals("yarn")
        && !conf.get("spark.submit.deployMode", "client").equals("cluster");
  }

  /** Tags the application for the watch that bounds its wait for YARN. */
  private static YarnAdmission admission(SparkConf conf) {
    String tag = YarnAdmission.newTag();
    conf.set("spark.yarn.tags", YarnAdmission.withTag(conf.get("spark.yarn.tags", ""), tag));
    Map<String, String> settings = new HashMap<>();
    for (Tuple2<String, String> kv : conf.getAll()) {
      settings.put(kv._1(), kv._2());
    }
    return new YarnAdmission(
        YarnAdmission.hadoopConf(settings),
        tag,
        conf.get(YarnAdmission.TIMEOUT, YarnAdmission.DEFAULT_TIMEOUT));
  }

  /** The watch's reason, given a few seconds to see how the failed start ended in YARN. */
  private static Optional<String> waitFor(
      CompletableFuture<Optional<String>> refusal, AtomicLong watchUntil) {
    watchUntil.set(System.currentTimeMillis() + 5_000);
    try {
      return refusal.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      return Optional.empty();
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
