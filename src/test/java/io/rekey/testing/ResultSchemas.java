package io.rekey.testing;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.rekey.common.Json;
import io.rekey.common.JsonResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Derives the JSON Schema of a command's result from what Jackson serializes (the project's own
 * mapper, so the schema describes the bytes {@code --json} writes), with the descriptions taken
 * from the records' javadoc {@code @param} tags. The schemas in the jar ({@code
 * src/main/resources/io/rekey/schema}) are these, checked in and reviewed: {@code
 * ResultSchemasTest} fails when a result's shape drifts from its file.
 *
 * <p>Every property is required (the mapper writes nulls); reference types may be null, primitives
 * may not; objects allow no other properties, so a field added or removed is a schema change.
 */
public final class ResultSchemas {

  private static final ObjectMapper MAPPER = Json.mapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Path SOURCES = Path.of("src/main/java");
  private static final Set<Class<?>> INTEGERS =
      Set.of(
          int.class,
          long.class,
          short.class,
          byte.class,
          Integer.class,
          Long.class,
          Short.class,
          Byte.class,
          java.math.BigInteger.class);
  private static final Set<Class<?>> NUMBERS =
      Set.of(double.class, float.class, Double.class, Float.class, java.math.BigDecimal.class);

  private final Map<String, ObjectNode> defs = new TreeMap<>();
  private final Map<Class<?>, Javadoc> docs = new HashMap<>();

  private ResultSchemas() {}

  /** Where the jar holds the schema of {@code command}'s result. */
  public static String resource(String command) {
    return JsonResult.schemaResource(command);
  }

  /** The schema of the result of {@code command}, of type {@code type}. */
  public static ObjectNode derive(String command, Class<?> type) {
    ResultSchemas s = new ResultSchemas();
    ObjectNode root = NODES.objectNode();
    root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    root.put("$id", "urn:hbase-rekey:schema:" + Path.of(resource(command)).getFileName());
    root.put("title", "hbase-rekey " + command + " --json");
    ObjectNode body = s.objectSchema(MAPPER.constructType(type));
    root.setAll(body);
    if (!s.defs.isEmpty()) {
      ObjectNode defs = root.putObject("$defs");
      s.defs.forEach(defs::set);
    }
    return root;
  }

  /** The schema of {@code command} as shipped in the jar (the test classpath), or null. */
  public static JsonNode shipped(String command) {
    try (InputStream in =
        ResultSchemas.class.getClassLoader().getResourceAsStream(resource(command))) {
      return in == null ? null : MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What is wrong with {@code result} against the shipped schema of {@code command}, one line a
   * fault; empty when it conforms.
   */
  public static java.util.List<String> violations(String command, JsonNode result) {
    JsonNode schema = shipped(command);
    if (schema == null) {
      return java.util.List.of("no schema " + resource(command) + " in the jar");
    }
    return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(schema)
        .validate(result)
        .stream()
        .map(ValidationMessage::getMessage)
        .sorted()
        .toList();
  }

  /** Writes {@code schema} where the sources keep it (to review and check in). */
  public static Path writeToSources(String command, JsonNode schema) throws IOException {
    Path file = Path.of("src/main/resources", resource(command));
    Files.createDirectories(file.getParent());
    Files.writeString(file, Json.toJson(schema) + "\n");
    return file;
  }

  private ObjectNode schemaOf(JavaType t, boolean nullable) {
    Class<?> raw = t.getRawClass();
    ObjectNode s = NODES.objectNode();
    if (JsonNode.class.isAssignableFrom(raw)) {
      s.put("description", "any JSON value");
      return s;
    }
    if (INTEGERS.contains(raw)) {
      return typed(s, "integer", nullable && !raw.isPrimitive());
    }
    if (NUMBERS.contains(raw)) {
      return typed(s, "number", nullable && !raw.isPrimitive());
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return typed(s, "boolean", nullable && !raw.isPrimitive());
    }
    if (CharSequence.class.isAssignableFrom(raw) || raw == char.class || raw == byte[].class) {
      return typed(s, "string", nullable);
    }
    if (raw.isEnum()) {
      typed(s, "string", nullable);
      ArrayNode values = s.putArray("enum");
      for (Object c : raw.getEnumConstants()) {
        values.add(((Enum<?>) c).name());
      }
      if (nullable) {
        values.addNull();
      }
      return s;
    }
    if (t.isArrayType() || t.isCollectionLikeType()) {
      typed(s, "array", nullable);
      s.set("items", schemaOf(t.getContentType(), true));
      return s;
    }
    if (t.isMapLikeType()) {
      typed(s, "object", nullable);
      s.set("additionalProperties", schemaOf(t.getContentType(), true));
      return s;
    }
    String name = defName(raw);
    if (!defs.containsKey(name)) {
      defs.put(name, NODES.objectNode()); // a placeholder against recursion
      defs.put(name, objectSchema(t));
    }
    ObjectNode ref = NODES.objectNode().put("$ref", "#/$defs/" + name);
    if (!nullable) {
      return ref;
    }
    s.putArray("anyOf").add(ref).add(NODES.objectNode().put("type", "null"));
    return s;
  }

  private ObjectNode objectSchema(JavaType t) {
    ObjectNode s = NODES.objectNode();
    Javadoc doc = javadoc(t.getRawClass());
    if (!doc.text().isEmpty()) {
      s.put("description", doc.text());
    }
    s.put("type", "object");
    ObjectNode properties = s.putObject("properties");
    ArrayNode required = s.putArray("required");
    addProperties(t, properties, required);
    s.put("additionalProperties", false);
    return s;
  }

  private void addProperties(JavaType t, ObjectNode properties, ArrayNode required) {
    BeanDescription bean = MAPPER.getSerializationConfig().introspect(t);
    Javadoc doc = javadoc(t.getRawClass());
    for (BeanPropertyDefinition p : bean.findProperties()) {
      AnnotatedMember accessor = p.getAccessor();
      if (accessor == null) {
        continue;
      }
      if (accessor.hasAnnotation(JsonUnwrapped.class)) {
        addProperties(accessor.getType(), properties, required);
        continue;
      }
      ObjectNode ps = schemaOf(accessor.getType(), true);
      String text =
          p.getName().equals("schemaVersion")
              ? "the version of this result's shape: raised when a field changes meaning or goes"
                  + " away"
              : doc.params().get(p.getName());
      if (text != null && !ps.has("$ref")) {
        ps.put("description", text);
      }
      properties.set(p.getName(), ps);
      required.add(p.getName());
    }
  }

  private static ObjectNode typed(ObjectNode s, String type, boolean nullable) {
    if (nullable) {
      s.putArray("type").add(type).add("null");
    } else {
      s.put("type", type);
    }
    return s;
  }

  private static String defName(Class<?> raw) {
    return raw.getName().substring(raw.getPackageName().length() + 1).replace('$', '.');
  }

  /** A type's javadoc: its text before the tags, and its {@code @param} descriptions. */
  private record Javadoc(String text, Map<String, String> params) {}

  private Javadoc javadoc(Class<?> type) {
    return docs.computeIfAbsent(type, ResultSchemas::readJavadoc);
  }

  private static Javadoc readJavadoc(Class<?> type) {
    Class<?> top = type;
    while (top.getEnclosingClass() != null) {
      top = top.getEnclosingClass();
    }
    Path file = SOURCES.resolve(top.getName().replace('.', '/') + ".java");
    if (!Files.exists(file)) {
      return new Javadoc("", Map.of());
    }
    String source;
    try {
      source = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher m =
        Pattern.compile(
                "/\\*\\*((?:(?!\\*/).)*?)\\*/\\s*(?:@[\\w.]+(?:\\([^)]*\\))?\\s*)*"
                    + "(?:(?:public|static|final|sealed|abstract)\\s+)*(?:record|class|enum|interface)\\s+"
                    + type.getSimpleName()
                    + "\\b",
                Pattern.DOTALL)
            .matcher(source);
    if (!m.find()) {
      return new Javadoc("", Map.of());
    }
    String body = m.group(1).replaceAll("(?m)^\\s*\\* ?", "");
    String[] parts = body.split("(?m)^@(?=\\w)");
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      Matcher p = Pattern.compile("^param\\s+(\\w+)\\s+(.*)$", Pattern.DOTALL).matcher(parts[i]);
      if (p.matches()) {
        params.put(p.group(1), clean(p.group(2)));
      }
    }
    return new Javadoc(clean(parts[0]), params);
  }

  /** Javadoc markup to plain text: one line, {@code {@code x}} and links to their words. */
  private static String clean(String text) {
    String linked =
        Pattern.compile("\\{@link(?:plain)?\\s+(?:[\\w.]*#)?([^}\\s]+)(?:\\s+([^}]*))?}")
            .matcher(text.replaceAll("\\{@(?:code|literal)\\s+([^}]*)}", "$1"))
            .replaceAll(
                r -> Matcher.quoteReplacement(r.group(2) != null ? r.group(2) : r.group(1)));
    return linked.replaceAll("<[^>]+>", "").replaceAll("\\s+", " ").strip();
  }
}
