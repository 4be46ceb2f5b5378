package io.rekey.report;

import io.rekey.keys.KeyText;
import io.rekey.keys.LayoutPreview;
import java.util.Map;

/** The human-readable form of a {@link LayoutPreview}. */
public final class LayoutText {
  private LayoutText() {}

  public static String render(LayoutPreview p) {
    StringBuilder out = new StringBuilder();
    summary(out, "Source key", p.source());
    summary(out, "Target key", p.target());
    out.append("\nInjective: ").append(p.injectivity()).append('\n');
    out.append("Decodable: ")
        .append(
            p.decodable()
                ? "yes: reading a new key back gives every field it was built from"
                : "no: " + String.join(", ", p.unrecoverableFields()) + " only hashed, not kept")
        .append('\n');
    if (!p.keys().isEmpty()) {
      out.append("\nKeys\n");
      for (LayoutPreview.KeyPreview k : p.keys()) {
        out.append("  old ").append(show(k.oldKey())).append('\n');
        if (!k.fields().isEmpty()) {
          out.append("    fields  ").append(fields(k.fields())).append('\n');
        }
        if (k.newKey() == null) {
          out.append("    REJECTED ")
              .append(k.rejectReason())
              .append(": ")
              .append(k.rejectDetail())
              .append('\n');
          continue;
        }
        out.append("    new     ")
            .append(show(k.newKey()))
            .append(" (")
            .append(k.newKeyLength())
            .append(" bytes)\n");
        out.append("    decoded ").append(fields(k.decoded())).append('\n');
      }
    }
    if (p.splitPoints() != null) {
      out.append("\nSplit points (").append(p.splitPoints().size() + 1).append(" regions)\n");
      int i = 0;
      for (KeyText s : p.splitPoints()) {
        out.append(String.format("  %3d  %s%n", ++i, show(s)));
      }
    }
    if (p.scan() != null) {
      out.append("\nScan for ")
          .append(fields(p.scan().query()))
          .append(": ")
          .append(p.scan().ranges().size())
          .append(" range(s)\n");
      for (KeyText[] r : p.scan().ranges()) {
        out.append("  [")
            .append(bound(r[0], "start of table"))
            .append(", ")
            .append(bound(r[1], "end of table"))
            .append(")\n");
      }
    }
    return out.toString();
  }

  private static void summary(StringBuilder out, String title, LayoutPreview.LayoutSummary s) {
    out.append(title).append(" (").append(s.mode()).append("): ").append(s.spec()).append('\n');
    for (String part : s.parts()) {
      out.append("  ").append(part).append('\n');
    }
  }

  private static String fields(Map<String, String> fields) {
    StringBuilder s = new StringBuilder();
    fields.forEach((k, v) -> s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return s.toString();
  }

  private static String show(KeyText k) {
    return "'" + k.printable() + "' hex " + k.hex();
  }

  private static String bound(KeyText k, String empty) {
    return k.hex().isEmpty() ? empty : show(k);
  }
}
