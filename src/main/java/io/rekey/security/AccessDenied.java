package io.rekey.security;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns HBase's refusal of a missing grant (the AccessController's {@code AccessDeniedException},
 * wherever it sits among an exception's causes, or in the text Spark keeps of a failed task) into
 * one line: who was refused what, where, and the {@code grant} an HBase admin can run.
 */
public final class AccessDenied {
  /**
   * The AccessController's words: {@code Insufficient permissions (user=U, scope=S, ...action=A)}.
   */
  private static final Pattern REFUSAL =
      Pattern.compile(
          "Insufficient permissions \\(user=([^,]+), scope=([^,]+),.*?action=([A-Z]+)\\)");

  private static final Map<String, String> LETTERS =
      Map.of("READ", "R", "WRITE", "W", "EXEC", "X", "CREATE", "C", "ADMIN", "A");

  private AccessDenied() {}

  /** The line for {@code e}, when HBase refused it for a missing permission; else empty. */
  public static Optional<String> line(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String text = String.valueOf(t.getMessage());
      Matcher m = REFUSAL.matcher(text);
      if (m.find()) {
        return Optional.of(line(m.group(1), m.group(2), m.group(3)));
      }
      if (t.getClass().getSimpleName().equals("AccessDeniedException")
          && t.getClass().getName().startsWith("org.apache.hadoop.hbase")) {
        return Optional.of("HBase refused the request: " + text.strip().split("\n", 2)[0]);
      }
    }
    return Optional.empty();
  }

  static String line(String principal, String scope, String action) {
    String user = principal.replaceAll("[/@].*", "");
    String letter = LETTERS.getOrDefault(action, action);
    String target;
    String grantScope;
    if (scope.equalsIgnoreCase("global") || scope.isEmpty()) {
      target = "the whole cluster";
      grantScope = "";
    } else if (scope.contains(":") || scope.startsWith("hbase:")) {
      target = "table " + scope;
      grantScope = ", '" + scope + "'";
    } else {
      target = "namespace " + scope;
      grantScope = ", '@" + scope + "'";
    }
    return "HBase refused "
        + principal
        + " "
        + action
        + " permission on "
        + target
        + ". An HBase admin can grant it in the hbase shell: grant '"
        + user
        + "', '"
        + letter
        + "'"
        + grantScope
        + " (deploy/README.md, Permissions)";
  }
}
