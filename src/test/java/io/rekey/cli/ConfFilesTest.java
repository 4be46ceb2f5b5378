package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.index.IndexDefinition;
import io.rekey.options.OptionValues;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every example in {@code conf/} must pass the same validation a real run applies. */
class ConfFilesTest {
  static final Path CONF = Path.of("conf");

  @Test
  void everyJobFileValidatesForItsCommand() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(CONF.resolve("jobs"))) {
      files = s.filter(p -> p.toString().endsWith(".properties")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    Main main = new Main(System.out, System.err, Map.of());
    for (Path file : files) {
      Properties props = load(file);
      String command = props.getProperty(OptionValues.COMMAND_KEY);
      assertThat(command).as("%s must say which command it is for", file).isNotBlank();
      Object options = main.checkJobFile(command.trim(), file);
      assertThat(options).as(file.toString()).isNotNull();
    }
  }

  @Test
  void everyIndexDefinitionValidates() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(CONF.resolve("indexes"))) {
      files = s.filter(p -> p.toString().endsWith(".properties")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      OptionValues values =
          IndexDefinition.withDefinitionFile(OptionValues.empty().with("def", file.toString()));
      IndexDefinition d = IndexDefinition.from(values.validate(IndexDefinition.declaredWithFile()));
      assertThat(d.indexTable()).as(file.toString()).isNotNull();
    }
    Main main = new Main(System.out, System.err, Map.of());
    assertThat(
            main.checkJobFile(
                "index build", CONF.resolve("indexes/demo-messages-by-sender.properties")))
        .isNotNull();
  }

  @Test
  void loggingConfigurationIsThere() throws Exception {
    Properties props = load(CONF.resolve("log4j2.properties"));
    assertThat(props.getProperty("rootLogger.level")).isEqualTo("warn");
    assertThat(props.getProperty("logger.rekey.name")).isEqualTo("io.rekey");
  }

  @Test
  void everyFileInConfIsKnown() throws Exception {
    try (Stream<Path> s = Files.walk(CONF)) {
      s.filter(Files::isRegularFile)
          .forEach(
              p ->
                  assertThat(
                          p.toString().endsWith(".properties")
                              && (p.getParent().equals(CONF)
                                  || p.getParent().equals(CONF.resolve("jobs"))
                                  || p.getParent().equals(CONF.resolve("indexes"))))
                      .as(
                          "%s: conf/ holds log4j2.properties, conf/jobs/*.properties and"
                              + " conf/indexes/*.properties",
                          p)
                      .isTrue());
    }
  }

  private static Properties load(Path file) throws Exception {
    Properties props = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      props.load(in);
    }
    return props;
  }
}
