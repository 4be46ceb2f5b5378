package io.rekey.cli;

import io.rekey.common.Json;
import io.rekey.hbase.HBaseSettings;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What a running command may use besides its options: where to print and where HBase is.
 *
 * @param out the human summary goes here
 * @param err warnings
 * @param hbase the cluster
 * @param json where to write the JSON result, null for none, {@code -} for {@code out}
 */
record CommandContext(PrintStream out, PrintStream err, HBaseSettings hbase, Path json) {
  /** Prints the human text unless JSON goes to stdout, then writes the JSON if asked. */
  void emit(String humanText, Object result) {
    boolean jsonToStdout = json != null && json.toString().equals("-");
    if (jsonToStdout) {
      out.println(Json.toJson(result));
      return;
    }
    out.print(humanText);
    if (json != null) {
      Json.write(result, json);
      out.println("JSON result written to " + json);
    }
  }
}
