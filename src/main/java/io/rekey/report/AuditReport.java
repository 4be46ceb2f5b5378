package io.rekey.report;

import io.rekey.audit.AuditResult;
import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import io.rekey.hbase.HadoopFiles;
import io.rekey.options.Location;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * Writes {@code audit.json} and {@code audit.html} into a directory, each under a temporary name
 * renamed when complete, so a scheduled run never leaves a half-written report for a reader.
 */
public final class AuditReport {
  public static final String JSON = "audit.json";
  public static final String HTML = "audit.html";

  private AuditReport() {}

  public static void write(AuditResult result, Location dir, Configuration conf) {
    try {
      HadoopFiles.write(dir.child(JSON), Json.toJson(result) + "\n", conf);
      HadoopFiles.write(dir.child(HTML), AuditHtml.render(result), conf);
    } catch (IOException e) {
      throw new RekeyException(
          "cannot write the audit report to " + dir + " (--out): " + e.getMessage(), e);
    }
  }
}
