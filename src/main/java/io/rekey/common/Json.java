package io.rekey.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** JSON output of results: records as objects, pretty-printed, one mapper for the project. */
public final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private Json() {}

  /** {@code value} as JSON on one line, for records kept one per cell or line. */
  public static String toJsonLine(Object value) {
    try {
      return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value + " as JSON", e);
    }
  }

  public static String toJson(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
    }
  }

  /** Writes {@code value} to {@code file}, creating its directory. */
  public static void write(Object value, Path file) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      Files.writeString(file, toJson(value) + System.lineSeparator());
    } catch (IOException e) {
      throw new RekeyException(
          "cannot write the JSON result to " + file + " (--json): " + e.getMessage(), e);
    }
  }

  /** The shared mapper, for reading results back (tests, tools). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
