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
}
