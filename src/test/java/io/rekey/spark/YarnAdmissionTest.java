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

  /** What a ResourceManager of Hadoop 3 says of an application whose AM's JVM would not start. */
  static final String AM_EXITED =
      "Application application_1765000000000_0007 failed 1 times due to AM Container for"
          + " appattempt_1765000000000_0007_000001 exited with  exitCode: 1\n"
          + "Failing this attempt.Diagnostics: [2026-12-06 02:40:11.201]Exception from"
          + " container-launch.\n"
          + "Container id: container_1765000000000_0007_01_000001\n"
          + "Exit code: 1\n\n"
          + "[2026-12-06 02:40:11.203]Container exited with a non-zero exit code 1. Error file:"
          + " prelaunch.err.\n"
          + "Last 4096 bytes of prelaunch.err :\n"
          + "Last 4096 bytes of stderr :\n"
          + "Picked up JAVA_TOOL_OPTIONS: -Xss1k\n"
          + "The Java thread stack size specified is too small. Specify at least 136k\n"
          + "Error: Could not create the Java Virtual Machine.\n"
          + "Error: A fatal exception has occurred. Program will exit.\n\n\n"
          + "For more detailed output, check the application tracking page:"
          + " http://rm:8088/cluster/app/application_1765000000000_0007 Then click on links to"
          + " logs of each attempt.\n"
          + ". Failing the application.";

  @Test
  void anApplicationMasterThatExitedBeforeRegisteringIsExplainedByItsOwnFirstError() {
    assertThat(YarnAdmission.amFailure("application_1765000000000_0007", AM_EXITED))
        .contains(
            "the ApplicationMaster of application_1765000000000_0007 exited with exit code 1"
                + " before it registered: The Java thread stack size specified is too small. Specify at"
                + " least 136k (its log:"
                + " yarn logs -applicationId application_1765000000000_0007)");
  }

  @Test
  void aLoggedExceptionInTheAmsStderrLosesItsLogPrefix() {
    String kerberos =
        AM_EXITED.replace(
            "Picked up JAVA_TOOL_OPTIONS: -Xss1k\n"
                + "The Java thread stack size specified is too small. Specify at least 136k\n"
                + "Error: Could not create the Java Virtual Machine.\n"
                + "Error: A fatal exception has occurred. Program will exit.\n",
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
