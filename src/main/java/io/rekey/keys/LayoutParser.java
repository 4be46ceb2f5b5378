package io.rekey.keys;

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
 * <p>A recursive-descent parser, one method per rule of the grammar above, over the spec's tokens
 * ({@link SpecTokens}).
 */
final class LayoutParser {
  static final Set<String> RESERVED =
      Set.of("salt", "hash", "hash_pair", "reverse", "reverse_ts", "text", "binary");

  private final String spec;
  private final Map<String, FieldType> known;
  private SpecTokens tokens;

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
    tokens = SpecTokens.of(spec);
    KeyMode mode = KeyMode.BINARY;
    if (tokens.peekIs("ident")
        && tokens.peekIs(1, ":")
        && Set.of("text", "binary").contains(tokens.peek().text())) {
      mode = tokens.peek().text().equals("text") ? KeyMode.TEXT : KeyMode.BINARY;
      tokens.skip(2);
    }
    List<Part> parts = new ArrayList<>();
    parts.add(part(mode));
    while (tokens.peekIs("+")) {
      tokens.skip(1);
      parts.add(part(mode));
    }
    List<ColumnBinding> bindings = new ArrayList<>();
    if (tokens.peekIs(";")) {
      if (known != null) {
        throw new LayoutException(
            "column bindings (after ';') belong in the source key spec", tokens.peek().column());
      }
      tokens.skip(1);
      bindings.add(binding());
      while (tokens.peekIs(",")) {
        tokens.skip(1);
        bindings.add(binding());
      }
    }
    if (tokens.hasMore()) {
      SpecTokens.Token t = tokens.peek();
      throw new LayoutException(
          "expected '+' between parts or ';' before column bindings, found '" + t.text() + "'",
          t.column());
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
    SpecTokens.Token t = tokens.take("a part (a field, a 'literal' or a function)");
    if (t.kind().equals("string")) {
      byte[] bytes = SpecTokens.unescape(t);
      if (bytes.length == 0) {
        throw new LayoutException("a literal must not be empty", t.column());
      }
      return new LiteralPart(bytes, t.column());
    }
    if (!t.kind().equals("ident")) {
      throw new LayoutException(
          "expected a part (a field, a 'literal' or a function), found '" + t.text() + "'",
          t.column());
    }
    if (tokens.peekIs("(")) {
      return function(t, mode);
    }
    return new FieldPart(fieldRef(t, mode, null), t.column());
  }

  private Part function(SpecTokens.Token name, KeyMode mode) {
    String fn = name.text().toLowerCase(Locale.ROOT);
    tokens.expect("(");
    switch (fn) {
      case "salt" -> {
        SpecTokens.Token n = tokens.take("the number of salt buckets");
        int buckets = number(n, "salt buckets", 1, 256);
        List<String> fields = new ArrayList<>();
        while (tokens.peekIs(",")) {
          tokens.skip(1);
          fields.add(knownFieldName(tokens.take("a field name")));
        }
        tokens.expect(")");
        return new SaltPart(buckets, fields, name.column());
      }
      case "hash" -> {
        List<String> fields = new ArrayList<>();
        Integer bytes = null;
        String algo = "md5";
        boolean first = true;
        while (!tokens.peekIs(")")) {
          if (!first) {
            tokens.expect(",");
          }
          first = false;
          SpecTokens.Token a = tokens.take("a field name or bytes=k");
          if (a.kind().equals("ident") && tokens.peekIs("=")) {
            tokens.skip(1);
            SpecTokens.Token v = tokens.take("a value");
            switch (a.text()) {
              case "bytes" -> bytes = number(v, "hash bytes", 1, 16);
              case "algo" -> {
                algo = v.text().toLowerCase(Locale.ROOT);
                if (!algo.equals("md5") && !algo.equals("murmur3")) {
                  throw new LayoutException(
                      "hash algo is '" + v.text() + "' but must be md5 or murmur3", v.column());
                }
              }
              default ->
                  throw new LayoutException(
                      "hash takes bytes= and algo=, not '" + a.text() + "='", a.column());
            }
          } else {
            fields.add(knownFieldName(a));
          }
        }
        tokens.expect(")");
        if (bytes == null) {
          throw new LayoutException(
              "hash needs its length: hash(" + String.join(", ", fields) + ", bytes=2)",
              name.column());
        }
        if (algo.equals("murmur3") && bytes > 4) {
          throw new LayoutException(
              "hash bytes is " + bytes + " but murmur3 gives at most 4; use algo=md5 for more",
              name.column());
        }
        return new HashPart(fields, bytes, algo, name.column());
      }
      case "hash_pair" -> {
        String a = knownFieldName(tokens.take("the first field"));
        tokens.expect(",");
        String b = knownFieldName(tokens.take("the second field"));
        int bytes = 16;
        if (tokens.peekIs(",")) {
          tokens.skip(1);
          SpecTokens.Token k = tokens.take("bytes=k");
          if (!k.text().equals("bytes")) {
            throw new LayoutException(
                "hash_pair takes bytes=k, not '" + k.text() + "'", k.column());
          }
          tokens.expect("=");
          bytes = number(tokens.take("the number of bytes"), "hash_pair bytes", 1, 16);
        }
        tokens.expect(")");
        return new HashPairPart(a, b, bytes, name.column());
      }
      case "reverse" -> {
        SpecTokens.Token f = tokens.take("a field");
        FieldSpec spec = fieldRef(f, mode, null);
        tokens.expect(")");
        if (spec.type() == FieldType.BYTES) {
          throw new LayoutException("reverse works on text and numbers, not bytes()", f.column());
        }
        return new ReversePart(spec, name.column());
      }
      case "reverse_ts" -> {
        SpecTokens.Token f = tokens.take("a timestamp field");
        FieldSpec spec = fieldRef(f, mode, FieldType.LONG);
        tokens.expect(")");
        if (!spec.type().isNumber()) {
          throw new LayoutException(
              "reverse_ts needs a number but "
                  + f.text()
                  + " is declared "
                  + spec.type().specName()
                  + "; declare it "
                  + f.text()
                  + ":long in the source key",
              f.column());
        }
        return new ReverseTsPart(spec.name(), name.column());
      }
      default ->
          throw new LayoutException(
              "unknown function '"
                  + name.text()
                  + "'; the functions are salt, hash, hash_pair, reverse, reverse_ts",
              name.column());
    }
  }

  /**
   * A field reference with an optional type; {@code implied} types a bare name inside a function.
   */
  private FieldSpec fieldRef(SpecTokens.Token name, KeyMode mode, FieldType implied) {
    String field = fieldName(name);
    FieldType type = null;
    int width = 0;
    if (tokens.peekIs(":")) {
      tokens.skip(1);
      SpecTokens.Token t = tokens.take("a type (str, long, int, bytes(n))");
      switch (t.text().toLowerCase(Locale.ROOT)) {
        case "str", "string" -> type = FieldType.STR;
        case "long" -> type = FieldType.LONG;
        case "int" -> type = FieldType.INT;
        case "bytes" -> type = FieldType.BYTES;
        default ->
            throw new LayoutException(
                "unknown type '" + t.text() + "'; the types are str, long, int, bytes(n)",
                t.column());
      }
      if (tokens.peekIs("(")) {
        tokens.skip(1);
        SpecTokens.Token w = tokens.take("a width");
        width = number(w, field + " width", 1, type == FieldType.BYTES ? 32767 : 19);
        tokens.expect(")");
        if (type == FieldType.STR) {
          throw new LayoutException(
              "str takes no width; use bytes(n) for fixed length", w.column());
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
              w.column());
        }
      } else if (type == FieldType.BYTES) {
        throw new LayoutException("bytes needs a length: " + field + ":bytes(4)", t.column());
      }
    }
    requireKnown(field, name.column());
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

  private String fieldName(SpecTokens.Token t) {
    if (!t.kind().equals("ident")) {
      throw new LayoutException("expected a field name, found '" + t.text() + "'", t.column());
    }
    if (t.text().equals("text") || t.text().equals("binary")) {
      throw new LayoutException(
          "'" + t.text() + "' is a reserved word; name the field differently", t.column());
    }
    if (RESERVED.contains(t.text())) {
      throw new LayoutException(
          t.text()
              + " is a function and needs its arguments in parentheses, e.g. "
              + t.text()
              + "(...)",
          t.column());
    }
    return t.text();
  }

  /** A field named inside salt, hash or hash_pair: it must exist where names are known. */
  private String knownFieldName(SpecTokens.Token t) {
    String name = fieldName(t);
    requireKnown(name, t.column());
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
    SpecTokens.Token name = tokens.take("a field name");
    FieldSpec field = fieldRef(name, KeyMode.TEXT, null);
    tokens.expect("=");
    SpecTokens.Token family = tokens.take("a column family");
    if (!family.kind().equals("ident")) {
      throw new LayoutException(
          "expected family:qualifier, found '" + family.text() + "'", family.column());
    }
    tokens.expect(":");
    // A qualifier may hold characters an identifier may not: take the raw text up to ',' or end.
    SpecTokens.Token q = tokens.take("a qualifier");
    StringBuilder qualifier = new StringBuilder(q.text());
    while (tokens.hasMore() && !tokens.peekIs(",")) {
      qualifier.append(tokens.take("a qualifier").text());
    }
    return new ColumnBinding(field, family.text(), qualifier.toString(), name.column());
  }

  private int number(SpecTokens.Token t, String what, int min, int max) {
    int value;
    try {
      value = Integer.parseInt(t.text());
    } catch (NumberFormatException e) {
      throw new LayoutException(what + " is '" + t.text() + "' but must be a number", t.column());
    }
    if (value < min || value > max) {
      throw new LayoutException(
          what + " is " + value + " but must be " + min + ".." + max, t.column());
    }
    return value;
  }
}
