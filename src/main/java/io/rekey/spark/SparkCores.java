package io.rekey.spark;

import java.util.Optional;
import java.util.function.IntSupplier;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many cores a job sizes itself for (read tasks, writer tasks per region, sub-splits), and why.
 *
 * <p>{@code SparkContext.defaultParallelism()} counts the cores of the executors registered so far.
 * On a cluster the context is up before any executor has registered (a standalone master waits for
 * none, YARN and Kubernetes for 80% at most 30 s), so a job that asked right away planned for 2
 * cores on a cluster of 8 or 800. This asks the cluster's settings first: the executors the
 * application was given ({@code spark.executor.instances × spark.executor.cores}), the most dynamic
 * allocation may give ({@code spark.dynamicAllocation.maxExecutors × spark.executor.cores}), or a
 * standalone {@code spark.cores.max}. Only when none says it does it wait, up to {@code
 * spark.scheduler.maxRegisteredResourcesWaitingTime} (30 s), for the executors to register and
 * their number to settle. {@code spark.default.parallelism}, when set, is taken as the user's
 * answer.
 *
 * <p>Worked out once per Spark context and logged once, so every stage of a job plans for the same
 * number.
 */
public final class SparkCores {
  private static final Logger LOG = LoggerFactory.getLogger(SparkCores.class);

  /** How long the registered cores must stay the same before they count as all there is. */
  static final long SETTLE_MILLIS = 1500;

  private static SparkContext sizedFor;
  private static SparkCores sized;

  private final int cores;
  private final String why;

  SparkCores(int cores, String why) {
    this.cores = Math.max(1, cores);
    this.why = why;
  }

  /** The cores to plan for. */
  public int cores() {
    return cores;
  }

  /** Where the number comes from, for the plan's log line and the results. */
  public String why() {
    return why;
  }

  @Override
  public String toString() {
    return cores + " cores (" + why + ")";
  }

  /** The cores of this context's cluster, worked out on the first call. */
  public static synchronized SparkCores of(JavaSparkContext sc) {
    SparkContext context = sc.sc();
    if (sizedFor != context) {
      sized =
          size(
              context.getConf(),
              context.isLocal(),
              context::defaultParallelism,
              executors(context));
      sizedFor = context;
      LOG.info("spark: sizing the job's tasks for {}", sized);
    }
    return sized;
  }

  /**
   * The cores a job would size itself for, worked out from the submitted settings without starting
   * Spark: what a dry run plans with. A local master counts its threads; a cluster whose settings
   * do not say its size (a standalone master without {@code spark.cores.max}) is planned for
   * Spark's minimum of 2, and the reason says so.
   */
  public static SparkCores beforeStart(SparkConf conf) {
    String master = conf.get("spark.master", "local[*]");
    int machine = Runtime.getRuntime().availableProcessors();
    if (master.startsWith("local") && !conf.contains("spark.default.parallelism")) {
      return new SparkCores(Math.max(2, localThreads(master, machine)), "spark.master=" + master);
    }
    return fromSettings(conf, master)
        .orElseGet(
            () ->
                new SparkCores(
                    2,
                    "planned for Spark's minimum: spark.master="
                        + master
                        + " and no spark.cores.max or spark.executor.instances say how many"
                        + " cores the application gets"));
  }

  /** The threads of {@code local}, {@code local[N]}, {@code local[*]} or {@code local[N,F]}. */
  static int localThreads(String master, int machine) {
    int open = master.indexOf('[');
    if (open < 0) {
      return 1;
    }
    String n = master.substring(open + 1, master.length() - 1).split(",")[0].trim();
    return n.equals("*") ? machine : Integer.parseInt(n);
  }

  private static IntSupplier executors(SparkContext context) {
    // The block managers known to the driver: its own plus one per registered executor.
    return () -> Math.max(0, context.getExecutorMemoryStatus().size() - 1);
  }

  /**
   * The decision, apart from a live context.
   *
   * @param registeredCores the cores registered now ({@code defaultParallelism} with no {@code
   *     spark.default.parallelism} set: at least 2)
   * @param registeredExecutors the executors registered now
   */
  static SparkCores size(
      SparkConf conf, boolean local, IntSupplier registeredCores, IntSupplier registeredExecutors) {
    String master = conf.get("spark.master", "local[*]");
    if (local && !conf.contains("spark.default.parallelism")) {
      return new SparkCores(registeredCores.getAsInt(), "spark.master=" + master);
    }
    return fromSettings(conf, master)
        .orElseGet(() -> awaitRegistration(conf, registeredCores, registeredExecutors));
  }

  /** What the settings say of the application's cores: empty when they do not say. */
  private static Optional<SparkCores> fromSettings(SparkConf conf, String master) {
    if (conf.contains("spark.default.parallelism")) {
      return Optional.of(
          new SparkCores(
              conf.getInt("spark.default.parallelism", 2),
              "spark.default.parallelism=" + conf.get("spark.default.parallelism")));
    }
    boolean yarnOrK8s = master.startsWith("yarn") || master.startsWith("k8s://");
    // YARN and Kubernetes give an executor one core unless told otherwise; a standalone executor
    // takes all of its worker's cores, which the application cannot know beforehand.
    Integer perExecutor =
        conf.contains("spark.executor.cores")
            ? Integer.valueOf(conf.getInt("spark.executor.cores", 1))
            : yarnOrK8s ? Integer.valueOf(1) : null;
    if (conf.getBoolean("spark.dynamicAllocation.enabled", false)) {
      int max = conf.getInt("spark.dynamicAllocation.maxExecutors", Integer.MAX_VALUE);
      if (max != Integer.MAX_VALUE && perExecutor != null) {
        return Optional.of(
            new SparkCores(
                max * perExecutor,
                "dynamic allocation: spark.dynamicAllocation.maxExecutors="
                    + max
                    + " × "
                    + perExecutor
                    + " cores"));
      }
    } else if (perExecutor != null && (yarnOrK8s || conf.contains("spark.executor.instances"))) {
      int instances = conf.getInt("spark.executor.instances", 2);
      return Optional.of(
          new SparkCores(
              instances * perExecutor,
              "spark.executor.instances="
                  + instances
                  + " × spark.executor.cores="
                  + perExecutor
                  + (conf.contains("spark.executor.instances") ? "" : " (Spark's defaults)")));
    } else if (conf.contains("spark.cores.max")) {
      return Optional.of(new SparkCores(conf.getInt("spark.cores.max", 2), "spark.cores.max"));
    }
    return Optional.empty();
  }

  /** Nothing says how big the cluster is: count what registers, once it stops growing. */
  private static SparkCores awaitRegistration(
      SparkConf conf, IntSupplier registeredCores, IntSupplier registeredExecutors) {
    long waitMillis = conf.getTimeAsMs("spark.scheduler.maxRegisteredResourcesWaitingTime", "30s");
    long start = System.currentTimeMillis();
    long deadline = start + waitMillis;
    int lastCores = -1;
    long stableSince = start;
    while (System.currentTimeMillis() < deadline) {
      int executors = registeredExecutors.getAsInt();
      int cores = registeredCores.getAsInt();
      if (cores != lastCores) {
        lastCores = cores;
        stableSince = System.currentTimeMillis();
      } else if (executors > 0 && System.currentTimeMillis() - stableSince >= SETTLE_MILLIS) {
        return new SparkCores(
            cores,
            "the "
                + executors
                + " executor(s) registered within "
                + (System.currentTimeMillis() - start) / 1000.0
                + " s; set spark.cores.max or spark.executor.instances to size for more");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    int executors = registeredExecutors.getAsInt();
    return new SparkCores(
        registeredCores.getAsInt(),
        executors == 0
            ? "no executor registered within "
                + waitMillis / 1000.0
                + " s (spark.scheduler.maxRegisteredResourcesWaitingTime); planning for Spark's"
                + " minimum. Does the cluster have free cores and memory for this application?"
            : "the "
                + executors
                + " executor(s) registered within "
                + waitMillis / 1000.0
                + " s (spark.scheduler.maxRegisteredResourcesWaitingTime)");
  }
}
