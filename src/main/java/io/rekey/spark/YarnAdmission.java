package io.rekey.spark;

import io.rekey.common.RekeyException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.spark.network.util.JavaUtils;

/**
 * Bounds how long a submitted Spark application may wait for YARN to start it. YARN keeps an
 * application ACCEPTED for as long as its queue has no room for the ApplicationMaster, and Spark's
 * client waits with it, silently and forever: a scheduled migration step would hang instead of
 * failing where the scheduler sees it. The application carries a tag of its own ({@link #newTag});
 * this watch finds it through the ResourceManager, kills it with a diagnostic when it has not
 * started within {@link #TIMEOUT} ({@value #DEFAULT_TIMEOUT} by default, {@code 0} waits forever),
 * and says in one line why an application ended before it ran (a queue that does not exist, an
 * ApplicationMaster larger than YARN allows).
 */
public final class YarnAdmission {
  /** The Spark property that bounds the wait (a Spark time string: {@code 90s}, {@code 15min}). */
  public static final String TIMEOUT = "spark.rekey.yarn.admissionTimeout";

  public static final String DEFAULT_TIMEOUT = "15min";

  private static final String TAG_PREFIX = "hbase-rekey-";
  private static final Duration POLL = Duration.ofSeconds(1);

  private static final Set<YarnApplicationState> WAITING =
      EnumSet.of(
          YarnApplicationState.NEW,
          YarnApplicationState.NEW_SAVING,
          YarnApplicationState.SUBMITTED,
          YarnApplicationState.ACCEPTED);

  private final Configuration conf;
  private final String tag;
  private final long timeoutSeconds;

  /**
   * @param conf where the ResourceManager is (yarn-site.xml on the classpath, plus the job's {@code
   *     spark.hadoop.*} settings)
   * @param tag the application's tag ({@code spark.yarn.tags})
   * @param timeout a Spark time string; {@code 0} never kills
   */
  public YarnAdmission(Configuration conf, String tag, String timeout) {
    this.conf = new YarnConfiguration(conf);
    this.tag = tag;
    this.timeoutSeconds = timeoutSeconds(timeout);
  }

  /** A tag no other application has; YARN keeps tags lower case. */
  public static String newTag() {
    return TAG_PREFIX + UUID.randomUUID().toString().toLowerCase(Locale.ROOT);
  }

  /** {@code tags} (Spark's comma-separated {@code spark.yarn.tags}) with {@code tag} added. */
  public static String withTag(String tags, String tag) {
    return tags == null || tags.isBlank() ? tag : tags + "," + tag;
  }

  /** The job's Hadoop settings: the classpath's, with the {@code spark.hadoop.*} ones applied. */
  public static Configuration hadoopConf(Map<String, String> sparkSettings) {
    Configuration conf = new Configuration();
    sparkSettings.forEach(
        (k, v) -> {
          if (k.startsWith("spark.hadoop.")) {
            conf.set(k.substring("spark.hadoop.".length()), v);
          }
        });
    return conf;
  }

  /**
   * Follows the tagged application until it runs or ends, while {@code submitting} holds.
   *
   * @return why it did not run: it ended before it started (YARN's diagnostics), or it waited
   *     longer than the timeout and was killed; empty when it started, or when the submission ended
   *     first
   */
  public Optional<String> await(BooleanSupplier submitting) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      long firstSeen = 0;
      while (submitting.getAsBoolean()) {
        Optional<ApplicationReport> app = find(yarn);
        if (app.isPresent()) {
          // Timed on this host's clock from the first sight: the ResourceManager's may differ.
          firstSeen = firstSeen == 0 ? System.currentTimeMillis() : firstSeen;
          ApplicationReport report = app.get();
          YarnApplicationState state = report.getYarnApplicationState();
          if (!WAITING.contains(state)) {
            Optional<String> amFailure =
                amFailure(report.getApplicationId(), report.getDiagnostics());
            if (state == YarnApplicationState.FAILED && amFailure.isPresent()) {
              return amFailure;
            }
            // Running, or ended after its ApplicationMaster registered: admitted.
            return state == YarnApplicationState.RUNNING || report.getLaunchTime() > 0
                ? Optional.empty()
                : Optional.of(endedBeforeRunning(report));
          }
          long waited = (System.currentTimeMillis() - firstSeen) / 1000;
          if (timeoutSeconds > 0 && waited >= timeoutSeconds) {
            String reason = waitedTooLong(report, waited);
            yarn.killApplication(report.getApplicationId(), "hbase-rekey: " + reason);
            return Optional.of(reason);
          }
        }
        Thread.sleep(POLL.toMillis());
      }
      return Optional.empty();
    }
  }

  private Optional<ApplicationReport> find(YarnClient yarn) throws Exception {
    List<ApplicationReport> apps =
        yarn.getApplications(null, EnumSet.allOf(YarnApplicationState.class), Set.of(tag));
    return apps.stream().findFirst();
  }

  /** An application that ended before YARN launched its ApplicationMaster: YARN refused it. */
  private static String endedBeforeRunning(ApplicationReport report) {
    return "YARN ended application "
        + report.getApplicationId()
        + " (queue '"
        + report.getQueue()
        + "') as "
        + report.getYarnApplicationState()
        + " before it ran: "
        + firstLine(report.getDiagnostics())
        + ". Check --queue and the memory and cores asked for against what the queue allows";
  }

  /**
   * When the diagnostics say YARN's ApplicationMaster container exited before it registered (so
   * before the driver ran, in cluster mode, or before it reached the driver, in client mode), the
   * AM's own first error: the first line of its standard error's tail (which YARN quotes in the
   * diagnostics) that reads as an error, else the diagnostics' first line.
   */
  static Optional<String> amFailure(Object application, String diagnostics) {
    if (diagnostics == null || !diagnostics.contains("AM Container for")) {
      return Optional.empty();
    }
    java.util.regex.Matcher exit =
        java.util.regex.Pattern.compile("exited with\\s+exitCode:\\s*(-?\\d+)")
            .matcher(diagnostics);
    String code = exit.find() ? " with exit code " + exit.group(1) : "";
    String error = firstError(diagnostics).orElse(firstLine(diagnostics));
    return Optional.of(
        "the ApplicationMaster of "
            + application
            + " exited"
            + code
            + " before it registered: "
            + error
            + " (its log: yarn logs -applicationId "
            + application
            + ")");
  }

  /** The first line of the AM's stderr tail quoted in the diagnostics that reads as an error. */
  private static Optional<String> firstError(String diagnostics) {
    int stderr = diagnostics.indexOf("Last 4096 bytes of stderr :");
    if (stderr < 0) {
      return Optional.empty();
    }
    String[] lines = diagnostics.substring(stderr).split("\\n");
    if (diagnostics.contains("Could not create the Java Virtual Machine")) {
      // The JVM itself refused to start: its first line says why.
      for (String line : lines) {
        String l = line.strip();
        if (!l.isEmpty() && !l.startsWith("Last ") && !l.startsWith("Picked up ")) {
          return Optional.of(l);
        }
      }
    }
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].strip();
      if (l.startsWith("at ") || l.startsWith("Last ") || l.isEmpty()) {
        continue;
      }
      if (l.matches("(?i).*(exception|error|unrecognized|cannot|can't|could not|not found).*")) {
        // Log4j's prefix (date, level, logger) says nothing the operator needs here; a line that
        // ends in a colon is continued by the exception on the next.
        String error = l.replaceFirst("^[\\d/:. -]+\\s+(ERROR|WARN|INFO)\\s+[\\w.$]+:\\s*", "");
        if (error.endsWith(":") && i + 1 < lines.length && !lines[i + 1].isBlank()) {
          error = error + " " + lines[i + 1].strip();
        }
        return Optional.of(error);
      }
    }
    return Optional.empty();
  }

  private String waitedTooLong(ApplicationReport report, long waited) {
    return "YARN did not start application "
        + report.getApplicationId()
        + " within "
        + waited
        + " s (queue '"
        + report.getQueue()
        + "', "
        + report.getYarnApplicationState()
        + ": "
        + firstLine(report.getDiagnostics())
        + "), so it was killed. Free room in the queue, ask for a smaller ApplicationMaster"
        + " (spark.yarn.am.memory, or --driver-memory in cluster mode) or another --queue, or wait"
        + " longer with --conf "
        + TIMEOUT
        + "=30min (0 waits forever)";
  }

  private static long timeoutSeconds(String timeout) {
    String value = timeout == null || timeout.isBlank() ? DEFAULT_TIMEOUT : timeout.strip();
    try {
      return JavaUtils.timeStringAsSec(value);
    } catch (NumberFormatException e) {
      throw new RekeyException(
          "--conf "
              + TIMEOUT
              + " is '"
              + value
              + "', which is not a time; give one like 90s or 15min (0 waits forever)");
    }
  }

  /** YARN's diagnostics, their first line without the scheduler's table of queue figures. */
  static String firstLine(String text) {
    if (text == null || text.isBlank()) {
      return "no diagnostics";
    }
    String line = text.strip().split("\n", 2)[0];
    int details = line.indexOf(" Details :");
    return (details > 0 ? line.substring(0, details) : line).strip();
  }
}
