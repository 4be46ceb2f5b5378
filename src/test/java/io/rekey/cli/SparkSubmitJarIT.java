package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.testing.EveryCell;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.Scripts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application jar runs through Spark's own {@code SparkSubmit} with nothing on the classpath
 * but Spark's runtime (Spark SQL + Hadoop client) and the jar: what a cluster gives it.
 */
@EveryCell
@ExtendWith(MiniHBase.class)
class SparkSubmitJarIT {
  @Test
  void theJarRunsGenerateAndDescribeOnSparksClasspathAlone() throws Exception {
    String classpath = Scripts.sparkRuntimeClasspath();
    // The cell's own Spark: spark-core_2.12-3.5.9.jar in the default cell.
    assertThat(classpath)
        .contains(
            "spark-core_"
                + Scripts.cellVersion("scala.binary.version")
                + "-"
                + Scripts.cellVersion("spark.version")
                + ".jar")
        .doesNotContain("hbase-");
    Path jar = Scripts.appJar();
    String table = "jar:messages";

    Scripts.Finished generate =
        Scripts.run(
            Map.of(),
            300,
            submit(
                classpath,
                jar,
                "generate",
                "--zk",
                MiniHBase.zkQuorum(),
                "--table",
                table,
                "--rows",
                "500"));
    assertThat(generate.exit()).as(generate.output()).isZero();
    assertThat(generate.output()).contains("generate: wrote 500 rows");
    assertThat(MiniHBase.util().countRows(TableName.valueOf(table))).isEqualTo(500);

    Scripts.Finished describe =
        Scripts.run(
            Map.of(),
            300,
            submit(classpath, jar, "describe", "--zk", MiniHBase.zkQuorum(), "--table", table));
    assertThat(describe.exit()).as(describe.output()).isZero();
    assertThat(describe.output()).contains("Table " + table, "[single-region]");

    // The whole rekey through the jar: snapshot read on HDFS, HFiles, bulk load, verify.
    var props = MiniHBase.settings().properties();
    Scripts.Finished rekey =
        Scripts.run(
            Map.of(),
            300,
            submit(
                classpath,
                jar,
                "rekey",
                "--zk",
                MiniHBase.zkQuorum(),
                "--hbase-set",
                "hbase.rootdir=" + props.get("hbase.rootdir"),
                "--hbase-set",
                "fs.defaultFS=" + props.get("fs.defaultFS"),
                "--source",
                table,
                "--target",
                "jar:by_sender",
                "--source-key",
                "text: ts:long + '_' + sender + '_' + msgid",
                "--target-key",
                "salt(4, sender) + sender + reverse_ts(ts) + msgid"));
    assertThat(rekey.exit()).as(rekey.output()).isZero();
    assertThat(rekey.output()).contains("rows read      500", "(adds up)", "verify         MATCH");
    assertThat(MiniHBase.util().countRows(TableName.valueOf("jar:by_sender"))).isEqualTo(500);

    Scripts.Finished wrong =
        Scripts.run(Map.of(), 300, submit(classpath, jar, "describe", "--bogus"));
    assertThat(wrong.exit()).as(wrong.output()).isEqualTo(2);
    assertThat(wrong.output()).contains("error: Unknown option --bogus");
  }

  private static List<String> submit(String classpath, Path jar, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Scripts.jvmFlags());
    command.add(
        "-Dlog4j2.configurationFile=file:"
            + Scripts.projectDir().resolve("conf/log4j2.properties"));
    command.addAll(
        List.of(
            "-cp",
            classpath,
            "org.apache.spark.deploy.SparkSubmit",
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--class",
            "io.rekey.cli.Main",
            jar.toString()));
    command.addAll(List.of(args));
    return command;
  }
}
