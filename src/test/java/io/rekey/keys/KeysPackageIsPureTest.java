package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The key codecs use the JDK and HBase's Bytes only, so applications can use them as a library. */
class KeysPackageIsPureTest {
  @Test
  void importsOnlyTheJdkAndBytes() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(Path.of("src/main/java/io/rekey/keys"))) {
      files = s.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      Files.readAllLines(file).stream()
          .map(String::trim)
          .filter(l -> l.startsWith("import "))
          .forEach(
              l ->
                  assertThat(
                          l.startsWith("import java.")
                              || l.equals("import org.apache.hadoop.hbase.util.Bytes;"))
                      .as("%s: %s", file.getFileName(), l)
                      .isTrue());
      assertThat(Files.readString(file)).as(file.toString()).doesNotContain("org.apache.spark");
    }
  }
}
