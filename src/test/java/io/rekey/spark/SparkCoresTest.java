package io.rekey.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class SparkCoresTest {
  private static SparkConf conf(String master, String... settings) {
    SparkConf conf = new SparkConf(false).set("spark.master", master);
    for (int i = 0; i < settings.length; i += 2) {
      conf.set(settings[i], settings[i + 1]);
    }
    return conf;
  }

  private static SparkCores size(SparkConf conf, int registeredCores, int executors) {
    return SparkCores.size(
        conf, conf.get("spark.master").startsWith("local"), () -> registeredCores, () -> executors);
  }

  @Test
  void localModeTakesItsThreads() {
    assertThat(size(conf("local[8]"), 8, 0)).hasToString("8 cores (spark.master=local[8])");
  }

  @Test
  void theExecutorsAskedForCountBeforeAnyHasRegistered() {
    SparkCores yarn =
        size(conf("yarn", "spark.executor.instances", "25", "spark.executor.cores", "4"), 2, 0);
    assertThat(yarn.cores()).isEqualTo(100);
    assertThat(yarn.why()).isEqualTo("spark.executor.instances=25 × spark.executor.cores=4");
    assertThat(size(conf("k8s://https://api:6443"), 2, 0))
        .hasToString(
            "2 cores (spark.executor.instances=2 × spark.executor.cores=1 (Spark's defaults))");
    assertThat(size(conf("spark://m:7077", "spark.cores.max", "16"), 2, 0))
        .hasToString("16 cores (spark.cores.max)");
  }

  @Test
  void dynamicAllocationPlansForItsMaximum() {
    SparkConf conf =
        conf(
            "yarn",
            "spark.dynamicAllocation.enabled",
            "true",
            "spark.dynamicAllocation.maxExecutors",
            "50",
            "spark.executor.cores",
            "2");
    assertThat(size(conf, 2, 0).cores()).isEqualTo(100);
    assertThat(size(conf, 2, 0).why()).startsWith("dynamic allocation");
  }

  @Test
  void theUsersDefaultParallelismWins() {
    assertThat(size(conf("yarn", "spark.default.parallelism", "48"), 2, 0))
        .hasToString("48 cores (spark.default.parallelism=48)");
  }

  @Test
  void aStandaloneClusterOfUnknownSizeIsCountedOnceItsExecutorsStopRegistering() {
    AtomicInteger polls = new AtomicInteger();
    // The first executor after a few polls, a second one a little later, then no more.
    SparkCores cores =
        SparkCores.size(
            conf("spark://m:7077"),
            false,
            () -> polls.get() < 5 ? 2 : polls.get() < 10 ? 4 : 8,
            () -> {
              int n = polls.incrementAndGet();
              return n < 5 ? 0 : n < 10 ? 1 : 2;
            });
    assertThat(cores.cores()).isEqualTo(8);
    assertThat(cores.why()).startsWith("the 2 executor(s) registered within ");
  }

  @Test
  void noExecutorWithinTheWaitIsSaidPlainly() {
    SparkCores cores =
        size(
            conf("spark://m:7077", "spark.scheduler.maxRegisteredResourcesWaitingTime", "300ms"),
            2,
            0);
    assertThat(cores.cores()).isEqualTo(2);
    assertThat(cores.why()).startsWith("no executor registered within 0.3 s");
  }

  @Test
  void aDryRunSizesFromTheSubmittedSettingsWithoutWaitingForExecutors() {
    int machine = Runtime.getRuntime().availableProcessors();
    assertThat(SparkCores.beforeStart(conf("local[6]")))
        .hasToString("6 cores (spark.master=local[6])");
    assertThat(SparkCores.beforeStart(conf("local[3,4]")).cores()).isEqualTo(3);
    assertThat(SparkCores.beforeStart(conf("local[*]")).cores()).isEqualTo(Math.max(2, machine));
    assertThat(SparkCores.beforeStart(conf("local")).cores()).isEqualTo(2);
    assertThat(
            SparkCores.beforeStart(
                    conf("yarn", "spark.executor.instances", "25", "spark.executor.cores", "4"))
                .cores())
        .isEqualTo(100);
    assertThat(SparkCores.beforeStart(conf("local[6]", "spark.default.parallelism", "9")).cores())
        .isEqualTo(9);
    long started = System.nanoTime();
    SparkCores unknown = SparkCores.beforeStart(conf("spark://m:7077"));
    assertThat(System.nanoTime() - started).isLessThan(5_000_000_000L);
    assertThat(unknown.cores()).isEqualTo(2);
    assertThat(unknown.why())
        .startsWith("planned for Spark's minimum: spark.master=spark://m:7077");
  }
}
