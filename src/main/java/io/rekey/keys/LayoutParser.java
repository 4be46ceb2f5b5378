package io.rekey.keys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses the key-layout language. A spec is an optional mode ({@code text:} or {@code binary:}),
 * then parts joined by {@code +}, then optionally {@code ;} and column bindings:
 *
 * <pre>
 * text: ts:long + '_' + user + '_' + order ; sender = m:sender
 * salt(16, user) + user + reverse_ts(ts) + order
 * </pre>
 *
 * Parts: a literal in single quotes ({@code '_'}, with {@code \xNN}, {@code \\} and {@code \'}
 * escapes); a field ({@code user}, {@code ts:long}, {@code ts:long(13)}, {@code id:int}, {@code
 * raw:bytes(4)}); {@code salt(N[, fields])}; {@code hash([fields,] bytes=k[, algo=md5|murmur3])};
 * {@code hash_pair(a, b[, bytes=k])}; {@code reverse(field)}; {@code reverse_ts(field)}. The field
 * {@code key} is the whole old key. Errors name the column where the problem starts.
 *
 * <p>One class of about 480 lines: a recursive-descent parser, one method per rule of the grammar
 * above, whose error messages need the shared cursor.
 */
final class LayoutParser {
  static final Set<String> RESERVED =
      Set.of("salt", "hash", "hash_pair", "reverse", "reverse_ts", "text", "binary");

  private final String spec;
  private final Map<String, FieldType> known;
  private int pos;

  private record Token(String kind, String text, int column) {}

  private final List<Token> tokens = new ArrayList<>();
  private int next;

  /**
   * @param known the types of fields declared elsewhere (the source key), used for bare names in a
   *     target; null when parsing a source, where every name is a new field
   */
  LayoutParser(String spec, Map<String, FieldType> known) {
    this.spec = spec;
    this.known = known;
  }

  KeyLayout parse() {
    if (spec == null || spec.isBlank()) {
      throw new LayoutException(
          "the key spec is empty; write parts joined by '+', e.g. user + reverse_ts(ts)", 0);
    }
    tokenize();
    KeyMode mode = KeyMode.BINARY;
    if (peekIs("ident") && peekIs(1, ":") && Set.of("text", "binary").contains(peek().text)) {
      mode = peek().text.equals("text") ? KeyMode.TEXT : KeyMode.BINARY;
      next += 2;
    }
    List<Part> parts = new ArrayList<>();
    parts.add(part(mode));
    while (peekIs("+")) {
      next++;
      parts.add(part(mode));
    }
    List<ColumnBinding> bindings = new ArrayList<>();
    if (peekIs(";")) {
      if (known != null) {
        throw new LayoutException(
            "column bindings (after ';') belong in the source key spec", peek().column);
      }
      next++;
      bindings.add(binding());
      while (peekIs(",")) {
        next++;
        bindings.add(binding());
      }
    }
    if (next < tokens.size()) {
      Token t = tokens.get(next);
      throw new LayoutException(
          "expected '+' between parts or ';' before column bindings, found '" + t.text + "'",
          t.column);
    }
    if (known == null) {
      requireEachFieldOnce(parts);
    }
    return new KeyLayout(spec.trim(), mode, parts, bindings);
  }

  /**
   * A source key reads each field out of the old key once: a second place with the same name would
   * overwrite the first value, so two old keys that differ only there would map to one new key.
   */
  private static void requireEachFieldOnce(List<Part> parts) {
    Map<String, Integer> seen = new HashMap<>();
    for (Part p : parts) {
      String name =
          p instanceof FieldPart f
              ? f.field().name()
              : p instanceof ReversePart r
                  ? r.field().name()
                  : p instanceof ReverseTsPart t ? t.field() : null;
      if (name == null) {
        continue;
      }
      Integer first = seen.putIfAbsent(name, p.column());
      if (first != null) {
        throw new LayoutException(
            "field "
                + name
                + " is named twice in the source key (first at column "
                + first
                + "); each part of the old key needs a name of its own, e.g. "
                + name
                + "2",
            p.column());
      }
    }
  }

  private Part part(KeyMode mode) {
    Token t = take("a part (a field, a 'literal' or a function)");
    if (t.kind.equals("string")) {
      byte[] bytes = unescape(t);
      if (bytes.length == 0) {
        throw new LayoutException("a literal must not be empty", t.column);
      }
      return new LiteralPart(bytes, t.column);
    }
    if (!t.kind.equals("ident")) {
      throw new LayoutException(
          "expected a part (a field, a 'literal' or a function), found '" + t.text + "'", t.column);
    }
    if (peekIs("(")) {
      return function(t, mode);
    }
    return new FieldPart(fieldRef(t, mode, null), t.column);
  }

  private Part function(Token name, KeyMode mode) {
    String fn = name.text.toLowerCase(Locale.ROOT);
    expect("(");
    switch (fn) {
      case "salt" -> {
        Token n = take("the number of salt buckets");
        int buckets = number(n, "salt buckets", 1, 256);
        List<String> fields = new ArrayList<>();
        while (peekIs(",")) {
          next++;
          fields.add(knownFieldName(take("a field name")));
        }
        expect(")");
        return new SaltPart(buckets, fields, name.column);
      }
      case "hash" -> {
        List<String> fields = new ArrayList<>();
        Integer bytes = null;
        String algo = "md5";
        boolean first = true;
        while (!peekIs(")")) {
          if (!first) {
            expect(",");
          }
          first = false;
          Token a = take("a field name or bytes=k");
          if (a.kind.equals("ident") && peekIs("=")) {
            next++;
            Token v = take("a value");
            switch (a.text) {
              case "bytes" -> bytes = number(v, "hash bytes", 1, 16);
              case "algo" -> {
                algo = v.text.toLowerCase(Locale.ROOT);
                if (!algo.equals("md5") && !algo.equals("murmur3")) {
                  throw new LayoutException(
                      "hash algo is '" + v.text + "' but must be md5 or murmur3", v.column);
                }
              }
              default ->
                  throw new LayoutException(
                      "hash takes bytes= and algo=, not '" + a.text + "='", a.column);
            }
          } else {
            fields.add(knownFieldName(a));
          }
        }
        expect(")");
        if (bytes == null) {
          throw new LayoutException(
              "hash needs its length: hash(" + String.join(", ", fields) + ", bytes=2)",
              name.column);
        }
        if (algo.equals("murmur3") && bytes > 4) {
          throw new LayoutException(
              "hash bytes is " + bytes + " but murmur3 gives at most 4; use algo=md5 for more",
              name.column);
        }
        return new HashPart(fields, bytes, algo, name.column);
      }
      case "hash_pair" -> {
        String a = knownFieldName(take("the first field"));
        expect(",");
        String b = knownFieldName(take("the second field"));
        int bytes = 16;
        if (peekIs(",")) {
          next++;
          Token k = take("bytes=k");
          if (!k.text.equals("bytes")) {
            throw new LayoutException("hash_pair takes bytes=k, not '" + k.text + "'", k.column);
          }
          expect("=");
          bytes = number(take("the number of bytes"), "hash_pair bytes", 1, 16);
        }
        expect(")");
        return new HashPairPart(a, b, bytes, name.column);
      }
      case "reverse" -> {
        Token f = take("a field");
        FieldSpec spec = fieldRef(f, mode, null);
        expect(")");
        if (spec.type() == FieldType.BYTES) {
          throw new LayoutException("reverse works on text and numbers, not bytes()", f.column);
        }
        return new ReversePart(spec, name.column);
      }
      case "reverse_ts" -> {
        Token f = take("a timestamp field");
        FieldSpec spec = fieldRef(f, mode, FieldType.LONG);
        expect(")");
        if (!spec.type().isNumber()) {
          throw new LayoutException(
              "reverse_ts needs a number but "
                  + f.text
                  + " is declared "
                  + spec.type().specName()
                  + "; declare it "
                  + f.text
                  + ":long in the source key",
              f.column);
        }
        return new ReverseTsPart(spec.name(), name.column);
      }
      default ->
          throw new LayoutException(
              "unknown function '"
                  + name.text
                  + "'; the functions are salt, hash, hash_pair, reverse, reverse_ts",
              name.column);
    }
  }

  /**
   * A field reference with an optional type; {@code implied} types a bare name inside a function.
   */
  private FieldSpec fieldRef(Token name, KeyMode mode, FieldType implied) {
    String field = fieldName(name);
    FieldType type = null;
    int width = 0;
    if (peekIs(":")) {
      next++;
      Token t = take("a type (str, long, int, bytes(n))");
      switch (t.text.toLowerCase(Locale.ROOT)) {
        case "str", "string" -> type = FieldType.STR;
        case "long" -> type = FieldType.LONG;
        case "int" -> type = FieldType.INT;
        case "bytes" -> type = FieldType.BYTES;
        default ->
            throw new LayoutException(
                "unknown type '" + t.text + "'; the types are str, long, int, bytes(n)", t.column);
      }
      if (peekIs("(")) {
        next++;
        Token w = take("a width");
        width = number(w, field + " width", 1, type == FieldType.BYTES ? 32767 : 19);
        expect(")");
        if (type == FieldType.STR) {
          throw new LayoutException("str takes no width; use bytes(n) for fixed length", w.column);
        }
        if (type.isNumber() && mode == KeyMode.BINARY) {
          throw new LayoutException(
              field
                  + ":"
                  + type.specName()
                  + "("
                  + width
                  + "): a digit width applies to text keys; binary keys write longs as 8 bytes"
                  + " and ints as 4",
              w.column);
        }
      } else if (type == FieldType.BYTES) {
        throw new LayoutException("bytes needs a length: " + field + ":bytes(4)", t.column);
      }
    }
    requireKnown(field, name.column);
    if (type == null) {
      FieldType knownType = known == null ? null : known.get(field);
      type = knownType != null ? knownType : implied != null ? implied : FieldType.STR;
      if (type == FieldType.BYTES) {
        // A bare name keeps the field's value; its fixed width belongs to the source key.
        type = FieldType.STR;
      }
    }
    return new FieldSpec(field, type, width);
  }

  private String fieldName(Token t) {
    if (!t.kind.equals("ident")) {
      throw new LayoutException("expected a field name, found '" + t.text + "'", t.column);
    }
    if (t.text.equals("text") || t.text.equals("binary")) {
      throw new LayoutException(
          "'" + t.text + "' is a reserved word; name the field differently", t.column);
    }
    if (RESERVED.contains(t.text)) {
      throw new LayoutException(
          t.text
              + " is a function and needs its arguments in parentheses, e.g. "
              + t.text
              + "(...)",
          t.column);
    }
    return t.text;
  }

  /** A field named inside salt, hash or hash_pair: it must exist where names are known. */
  private String knownFieldName(Token t) {
    String name = fieldName(t);
    requireKnown(name, t.column);
    return name;
  }

  private void requireKnown(String field, int column) {
    if (known != null && !known.containsKey(field) && !field.equals(KeyLayout.OLD_KEY)) {
      throw new LayoutException(
          "unknown field '"
              + field
              + "'; known fields: "
              + String.join(", ", new TreeSet<>(known.keySet())),
          column);
    }
  }

  private ColumnBinding binding() {
    Token name = take("a field name");
    FieldSpec field = fieldRef(name, KeyMode.TEXT, null);
    expect("=");
    Token family = take("a column family");
    if (!family.kind.equals("ident")) {
      throw new LayoutException(
          "expected family:qualifier, found '" + family.text + "'", family.column);
    }
    expect(":");
    // A qualifier may hold characters an identifier may not: take the raw text up to ',' or end.
    Token q = take("a qualifier");
    StringBuilder qualifier = new StringBuilder(q.text);
    while (next < tokens.size() && !peekIs(",")) {
      qualifier.append(tokens.get(next++).text);
    }
    return new ColumnBinding(field, family.text, qualifier.toString(), name.column);
  }

  private int number(Token t, String what, int min, int max) {
    int value;
    try {
      value = Integer.parseInt(t.text);
    } catch (NumberFormatException e) {
      throw new LayoutException(what + " is '" + t.text + "' but must be a number", t.column);
    }
    if (value < min || value > max) {
      throw new LayoutException(
          what + " is " + value + " but must be " + min + ".." + max, t.column);
    }
    return value;
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

  private static byte[] unescape(Token t) {
    String s = t.text;
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
              "\\x in a literal needs two hex digits, found '" + hex + "'", t.column);
        }
        out.write(Integer.parseInt(hex, 16));
        i += 2;
      } else if (e == '\\' || e == '\'') {
        out.write(e);
      } else {
        throw new LayoutException(
            "unknown escape '\\" + e + "' in a literal; use \\xNN, \\\\ or \\'", t.column);
      }
    }
    return out.toByteArray();
  }

  private Token take(String expected) {
    if (next >= tokens.size()) {
      throw new LayoutException(
          "the spec ends where " + expected + " should be", spec.length() + 1);
    }
    return tokens.get(next++);
  }

  private void expect(String kind) {
    Token t = take("'" + kind + "'");
    if (!t.kind.equals(kind)) {
      throw new LayoutException("expected '" + kind + "', found '" + t.text + "'", t.column);
    }
  }

  private Token peek() {
    return tokens.get(next);
  }

  private boolean peekIs(String kind) {
    return peekIs(0, kind);
  }

  private boolean peekIs(int ahead, String kind) {
    return next + ahead < tokens.size() && tokens.get(next + ahead).kind.equals(kind);
  }
}
