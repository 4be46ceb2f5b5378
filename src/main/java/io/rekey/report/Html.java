package io.rekey.report;

import java.util.List;

/** Escaping and small building blocks for well-formed (XML-parsable) HTML. */
final class Html {
  private Html() {}

  static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          // Control characters are not allowed in XML 1.0 text even escaped.
          if (c < 0x20 && c != '\n' && c != '\t') {
            out.append('?');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** A table with a header row; cells are escaped. */
  static String table(List<String> header, List<List<String>> rows) {
    StringBuilder s = new StringBuilder("<table>\n<tr>");
    for (String h : header) {
      s.append("<th>").append(escape(h)).append("</th>");
    }
    s.append("</tr>\n");
    for (List<String> row : rows) {
      s.append("<tr>");
      for (String cell : row) {
        s.append("<td>").append(escape(cell)).append("</td>");
      }
      s.append("</tr>\n");
    }
    return s.append("</table>\n").toString();
  }
}
