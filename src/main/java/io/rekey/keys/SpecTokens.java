package io.rekey.keys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A key spec cut into tokens (literals in single quotes, words, numbers and the punctuation {@code
 * +(),:=;}), each with the column it starts at, and the parser's cursor over them. Errors name the
 * column.
 */
final class SpecTokens {
  /**
   * One token.
   *
   * @param kind {@code string}, {@code ident}, {@code number}, or the punctuation itself
   * @param column where it starts in the spec, 1-based
   */
  record Token(String kind, String text, int column) {}

  private final String spec;
  private final List<Token> tokens = new ArrayList<>();
  private int pos;
  private int next;

  private SpecTokens(String spec) {
    this.spec = spec;
  }

  static SpecTokens of(String spec) {
    SpecTokens tokens = new SpecTokens(spec);
    tokens.tokenize();
    return tokens;
  }

  private void tokenize() {
    while (pos < spec.length()) {
      char c = spec.charAt(pos);
      int column = pos + 1;
      if (Character.isWhitespace(c)) {
        pos++;
      } else if (c == '\'') {
        int start = pos++;
        StringBuilder text = new StringBuilder();
        boolean closed = false;
        while (pos < spec.length()) {
          char d = spec.charAt(pos);
          if (d == '\\' && pos + 1 < spec.length()) {
            text.append(d).append(spec.charAt(pos + 1));
            pos += 2;
          } else if (d == '\'') {
            pos++;
            closed = true;
            break;
          } else {
            text.append(d);
            pos++;
          }
        }
        if (!closed) {
          throw new LayoutException("the literal starting here has no closing quote", start + 1);
        }
        tokens.add(new Token("string", text.toString(), column));
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.') {
        int start = pos;
        while (pos < spec.length()) {
          char d = spec.charAt(pos);
          if (Character.isLetterOrDigit(d) || d == '_' || d == '-' || d == '.') {
            pos++;
          } else {
            break;
          }
        }
        String word = spec.substring(start, pos);
        boolean digits = word.chars().allMatch(Character::isDigit);
        tokens.add(new Token(digits ? "number" : "ident", word, column));
      } else if ("+(),:=;".indexOf(c) >= 0) {
        tokens.add(new Token(String.valueOf(c), String.valueOf(c), column));
        pos++;
      } else {
        throw new LayoutException("unexpected '" + c + "'", column);
      }
    }
  }

  /** The bytes of a literal token, its escapes ({@code \xNN}, {@code \\}, {@code \'}) resolved. */
  static byte[] unescape(Token t) {
    String s = t.text();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        continue;
      }
      char e = s.charAt(++i);
      if (e == 'x') {
        String hex = i + 2 < s.length() ? s.substring(i + 1, i + 3) : s.substring(i + 1);
        if (!hex.matches("[0-9a-fA-F]{2}")) {
          throw new LayoutException(
              "\\x in a literal needs two hex digits, found '" + hex + "'", t.column());
        }
        out.write(Integer.parseInt(hex, 16));
        i += 2;
      } else if (e == '\\' || e == '\'') {
        out.write(e);
      } else {
        throw new LayoutException(
            "unknown escape '\\" + e + "' in a literal; use \\xNN, \\\\ or \\'", t.column());
      }
    }
    return out.toByteArray();
  }

  /** The next token; at the end, an error saying {@code expected} should be there. */
  Token take(String expected) {
    if (next >= tokens.size()) {
      throw new LayoutException(
          "the spec ends where " + expected + " should be", spec.length() + 1);
    }
    return tokens.get(next++);
  }

  void expect(String kind) {
    Token t = take("'" + kind + "'");
    if (!t.kind().equals(kind)) {
      throw new LayoutException("expected '" + kind + "', found '" + t.text() + "'", t.column());
    }
  }

  Token peek() {
    return tokens.get(next);
  }

  boolean peekIs(String kind) {
    return peekIs(0, kind);
  }

  boolean peekIs(int ahead, String kind) {
    return next + ahead < tokens.size() && tokens.get(next + ahead).kind().equals(kind);
  }

  /** Whether a token is left. */
  boolean hasMore() {
    return next < tokens.size();
  }

  /** Moves past {@code count} tokens the caller has looked at. */
  void skip(int count) {
    next += count;
  }
}
