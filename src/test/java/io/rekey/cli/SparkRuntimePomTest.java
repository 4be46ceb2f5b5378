package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code jobs/spark-runtime/pom.xml} stands for the cluster's Spark and {@code
 * jobs/cluster-runtime/pom.xml} for its HDFS and HBase: they must name the same versions the
 * application is built against.
 */
class SparkRuntimePomTest {
  @Test
  void versionsMatchTheMainPom() throws Exception {
    String main = Files.readString(Path.of("pom.xml"));
    String runtime = Files.readString(Path.of("jobs/spark-runtime/pom.xml"));
    for (String property :
        new String[] {
          "spark.version",
          "scala.binary.version",
          "hadoop.version",
          "jackson.version",
          "netty.version"
        }) {
      assertThat(property(runtime, property))
          .as("%s in jobs/spark-runtime/pom.xml", property)
          .isEqualTo(property(main, property));
    }
    String cluster = Files.readString(Path.of("jobs/cluster-runtime/pom.xml"));
    for (String property : new String[] {"hadoop.version", "hbase.version", "log4j.version"}) {
      assertThat(property(cluster, property))
          .as("%s in jobs/cluster-runtime/pom.xml", property)
          .isEqualTo(property(main, property));
    }
  }

  private static String property(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
    assertThat(m.find()).as("property %s", name).isTrue();
    return m.group(1);
  }
}
