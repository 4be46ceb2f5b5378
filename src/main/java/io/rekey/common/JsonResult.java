package io.rekey.common;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A command's result as {@code --json} writes it: a public shape of its own, documented by the JSON
 * Schema {@code /io/rekey/schema/NAME.schema.json} in the jar, with {@code schemaVersion} first. A
 * result raises its version when a field changes meaning or goes away (a new field does not), so a
 * reader can refuse a shape it does not know.
 */
@JsonPropertyOrder({"schemaVersion"})
public interface JsonResult {
  /** Where the jar holds the schema of {@code command}'s result (its words joined by -). */
  static String schemaResource(String command) {
    return "io/rekey/schema/" + command.replace(' ', '-') + ".schema.json";
  }

  /** The version of this result's shape; every shape starts at 1. */
  @JsonProperty("schemaVersion")
  default int schemaVersion() {
    return 1;
  }
}
