package io.rekey.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The admission watch's parts that need no ResourceManager (ClusterPipelineIT runs the rest). */
class YarnAdmissionTest {
  @Test
  void diagnosticsKeepTheirFirstLineWithoutTheSchedulersFigures() {
    assertThat(
            YarnAdmission.firstLine(
                "[Thu Dec 03 16:58:49 +0000 2026] Application is Activated, waiting for resources"
                    + " to be assigned for AM.  Details : AM Partition = <DEFAULT_PARTITION> ;"
                    + " Queue's Absolute capacity = 100.0 % ;\nmore"))
        .isEqualTo(
            "[Thu Dec 03 16:58:49 +0000 2026] Application is Activated, waiting for resources"
                + " to be assigned for AM.");
    assertThat(YarnAdmission.firstLine(null)).isEqualTo("no diagnostics");
  }

  @Test
  void aTimeoutThatIsNoTimeIsOneLine() {
    assertThatThrownBy(() -> new YarnAdmission(new Configuration(false), "t", "soon"))
        .isInstanceOf(RekeyException.class)
        .hasMessage(
            "--conf spark.rekey.yarn.admissionTimeout is 'soon', which is not a time; give one"
                + " like 90s or 15min (0 waits forever)");
  }

  @Test
  void tagsAreAddedToTheUsersAndSparkHadoopSettingsApply() {
    String tag = YarnAdmission.newTag();
    assertThat(tag).matches("hbase-rekey-[0-9a-f-]{36}");
    assertThat(YarnAdmission.withTag("", tag)).isEqualTo(tag);
    assertThat(YarnAdmission.withTag("team-a", tag)).isEqualTo("team-a," + tag);
    Configuration conf =
        YarnAdmission.hadoopConf(
            Map.of("spark.hadoop.yarn.resourcemanager.address", "rm:8032", "spark.master", "yarn"));
    assertThat(conf.get("yarn.resourcemanager.address")).isEqualTo("rm:8032");
    assertThat(conf.get("spark.master")).isNull();
  }

  /**
   * What Hadoop 3.3's ResourceManager said of an application whose AM could not load its Java agent
   * (JAVA_TOOL_OPTIONS=-javaagent:/no/such/agent.jar), on the pseudo-cluster.
   */
  static final String AM_EXITED =
      "Application application_1796525475966_0004 failed 1 times (global limit =2; local limit is"
          + " =1) due to AM Container for appattempt_1796525475966_0004_000001 exited with "
          + " exitCode: 1\nFailing this attempt.Diagnostics: [2026-12-06 02:53:51.754]Exception from"
          + " container-launch.\nContainer id: container_1796525475966_0004_01_000001\nExit code:"
          + " 1\n\n[2026-12-06 02:53:51.757]Container exited with a non-zero exit code 1. Error file:"
          + " prelaunch.err.\nLast 4096 bytes of prelaunch.err :\nLast 4096 bytes of stderr"
          + " :\nPicked up JAVA_TOOL_OPTIONS: -javaagent:/no/such/agent.jar\nError opening zip file"
          + " or JAR manifest missing : /no/such/agent.jar\n\n\nFor more detailed output, check the"
          + " application tracking page:"
          + " http://localhost:23016/cluster/app/application_1796525475966_0004 Then click on links"
          + " to logs of each attempt.\n. Failing the application.";

  /** The same of an AM whose JVM would not start (JAVA_TOOL_OPTIONS=-Xss1k). */
  static final String JVM_REFUSED =
      AM_EXITED.replace(
          "Picked up JAVA_TOOL_OPTIONS: -javaagent:/no/such/agent.jar\nError opening zip file"
              + " or JAR manifest missing : /no/such/agent.jar\n",
          "Picked up JAVA_TOOL_OPTIONS: -Xss1k\nError: Could not create the Java Virtual"
              + " Machine.\nError: A fatal exception has occurred. Program will exit.\n");

  @Test
  void anApplicationMasterThatExitedBeforeRegisteringIsExplainedByItsOwnFirstError() {
    assertThat(YarnAdmission.amFailure("application_1796525475966_0004", AM_EXITED))
        .contains(
            "the ApplicationMaster of application_1796525475966_0004 exited with exit code 1"
                + " before it registered: Error opening zip file or JAR manifest missing :"
                + " /no/such/agent.jar (its log: yarn logs -applicationId"
                + " application_1796525475966_0004)");
    assertThat(YarnAdmission.amFailure("application_1796525475966_0004", JVM_REFUSED).orElseThrow())
        .contains("before it registered: Error: Could not create the Java Virtual Machine.");
  }

  @Test
  void aLoggedExceptionInTheAmsStderrLosesItsLogPrefix() {
    String kerberos =
        AM_EXITED.replace(
            "Picked up JAVA_TOOL_OPTIONS: -javaagent:/no/such/agent.jar\nError opening zip file"
                + " or JAR manifest missing : /no/such/agent.jar\n",
            "26/12/06 02:40:10 INFO SignalUtils: Registering signal handler for TERM\n"
                + "26/12/06 02:40:11 ERROR ApplicationMaster: Uncaught exception: \n"
                + "java.lang.IllegalArgumentException: Can't get Kerberos realm\n"
                + "\tat org.apache.hadoop.security.HadoopKerberosName.setConfiguration\n");
    assertThat(YarnAdmission.amFailure("app_1", kerberos).orElseThrow())
        .contains(
            "before it registered: Uncaught exception: java.lang.IllegalArgumentException: Can't"
                + " get Kerberos realm (its log:");
  }

  @Test
  void anAmWithoutAStderrTailIsExplainedByTheDiagnosticsFirstLineAndOtherFailuresByNothing() {
    String bare =
        "Application application_1_0001 failed 2 times due to AM Container for"
            + " appattempt_1_0001_000002 exited with  exitCode: -104\nmore";
    assertThat(YarnAdmission.amFailure("application_1_0001", bare).orElseThrow())
        .contains("exit code -104 before it registered: Application application_1_0001 failed");
    assertThat(YarnAdmission.amFailure("a", "error: audit: no table it:none")).isEmpty();
    assertThat(YarnAdmission.amFailure("a", null)).isEmpty();
  }
}
