package io.rekey.report;

import io.rekey.audit.AuditResult;
import io.rekey.common.Json;
import io.rekey.common.RekeyException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes {@code audit.json} and {@code audit.html} into a directory, each under a temporary name
 * renamed when complete, so a scheduled run never leaves a half-written report for a reader.
 */
public final class AuditReport {
  public static final String JSON = "audit.json";
  public static final String HTML = "audit.html";

  private AuditReport() {}

  public static void write(AuditResult result, Path dir) {
    try {
      Files.createDirectories(dir);
      replace(dir.resolve(JSON), Json.toJson(result) + "\n");
      replace(dir.resolve(HTML), AuditHtml.render(result));
    } catch (IOException e) {
      throw new RekeyException(
          "cannot write the audit report to " + dir + " (--out): " + e.getMessage(), e);
    }
  }

  private static void replace(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
