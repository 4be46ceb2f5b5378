package io.rekey.options;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The raw option values of one command invocation, from the command line and optionally a
 * configuration file (command-line values win), checked against the command's declared options.
 * Immutable; {@link #with} returns a copy.
 */
public final class OptionValues {
  /** The key in a configuration file that names the command the file is for. */
  public static final String COMMAND_KEY = "command";

  private final Map<String, List<String>> raw;

  private OptionValues(Map<String, List<String>> raw) {
    this.raw = raw;
  }

  /** No values at all. */
  public static OptionValues empty() {
    return new OptionValues(Map.of());
  }

  /** A copy with one more value for {@code name} (appended for repeatable options). */
  public OptionValues with(String name, String value) {
    Map<String, List<String>> copy = new LinkedHashMap<>(raw);
    List<String> values = new ArrayList<>(copy.getOrDefault(name, List.of()));
    values.add(value);
    copy.put(name, List.copyOf(values));
    return new OptionValues(Collections.unmodifiableMap(copy));
  }

  /** These values on top of {@code base}: an option set here replaces all of base's values. */
  public OptionValues over(OptionValues base) {
    Map<String, List<String>> merged = new LinkedHashMap<>(base.raw);
    merged.putAll(raw);
    return new OptionValues(Collections.unmodifiableMap(merged));
  }

  /**
   * Reads a job configuration file: Java properties whose keys are the command's long option names
   * (without dashes), plus an optional {@code command} naming the command. A repeatable option
   * takes several values separated by {@code ;}.
   */
  public static OptionValues fromFile(Path file, String command, List<OptionDef<?>> declared) {
    return fromFile(file, command, declared, "job-file");
  }

  /**
   * The same for a file given by another option ({@code option}, which error messages name), such
   * as an index definition's {@code --def}.
   */
  public static OptionValues fromFile(
      Path file, String command, List<OptionDef<?>> declared, String option) {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return fromProperties(file.toString(), in, command, declared, option);
    } catch (NoSuchFileException e) {
      throw new InvalidOptionException(
          "--"
              + option
              + " is '"
              + file
              + "' but that file does not exist; give the path of a job file");
    } catch (IOException e) {
      throw unreadable(option, file.toString(), e);
    }
  }

  /** The same for a file already opened, wherever it is ({@code file} names it in messages). */
  public static OptionValues fromProperties(
      String file, Reader in, String command, List<OptionDef<?>> declared, String option) {
    List<String> repeated = new ArrayList<>();
    // Properties keeps the last of two equal keys; a job file that says an option twice would
    // lose a value without a word, so repeated keys are refused.
    Properties props =
        new Properties() {
          private static final long serialVersionUID = 1L;

          @Override
          public synchronized Object put(Object key, Object value) {
            if (containsKey(key)) {
              repeated.add(String.valueOf(key));
            }
            return super.put(key, value);
          }
        };
    try {
      props.load(in);
    } catch (IOException | IllegalArgumentException e) {
      throw unreadable(option, file, e);
    }
    if (!repeated.isEmpty()) {
      throw new InvalidOptionException(
          "--"
              + option
              + " is '"
              + file
              + "' but it sets "
              + String.join(", ", repeated)
              + " more than once, and only the last would count; write one line, with several"
              + " values of a repeatable option separated by ';'");
    }
    String forCommand = props.getProperty(COMMAND_KEY);
    if (forCommand != null && !forCommand.trim().equals(command)) {
      throw new InvalidOptionException(
          "--"
              + option
              + " is '"
              + file
              + "' but that file is for the '"
              + forCommand.trim()
              + "' command, not '"
              + command
              + "'; run '"
              + forCommand.trim()
              + "' with it or use another file");
    }
    Map<String, OptionDef<?>> byName = byName(declared);
    OptionValues values = empty();
    for (String key : new TreeSet<>(props.stringPropertyNames())) {
      if (key.equals(COMMAND_KEY)) {
        continue;
      }
      OptionDef<?> def = byName.get(key);
      if (def == null) {
        throw new InvalidOptionException(
            file
                + ": unknown key '"
                + key
                + "'"
                + NearestName.hint(key, byName.keySet(), "")
                + " for '"
                + command
                + "'; known keys: "
                + String.join(", ", new TreeSet<>(byName.keySet())));
      }
      String value = props.getProperty(key).trim();
      if (def.isRepeatable()) {
        for (String part : value.split(";")) {
          if (!part.isBlank()) {
            values = values.with(key, part.trim());
          }
        }
      } else {
        values = values.with(key, value);
      }
    }
    return values;
  }

  private static InvalidOptionException unreadable(String option, String file, Exception e) {
    return new InvalidOptionException(
        "--"
            + option
            + " is '"
            + file
            + "' but it cannot be read as a properties file: "
            + e.getMessage());
  }

  /**
   * Checks every value against the declarations: unknown names, repeated single-valued options,
   * missing required ones and values that do not parse are all reported here, before any work.
   */
  public OptionValues validate(List<OptionDef<?>> declared) {
    Map<String, OptionDef<?>> byName = byName(declared);
    for (Map.Entry<String, List<String>> e : raw.entrySet()) {
      OptionDef<?> def = byName.get(e.getKey());
      if (def == null) {
        throw new InvalidOptionException(
            "unknown option --"
                + e.getKey()
                + NearestName.hint(e.getKey(), byName.keySet(), "--")
                + "; known options: "
                + byName.keySet().stream().map(n -> "--" + n).collect(Collectors.joining(", ")));
      }
      if (!def.isRepeatable() && e.getValue().size() > 1) {
        throw new InvalidOptionException(
            "--" + e.getKey() + " is given " + e.getValue().size() + " times but takes one value");
      }
      for (String value : e.getValue()) {
        def.parse(value);
      }
    }
    for (OptionDef<?> def : declared) {
      if (def.isRequired() && !raw.containsKey(def.name())) {
        throw new InvalidOptionException(
            "--"
                + def.name()
                + " is missing; give it on the command line or in the --job-file file ("
                + def.doc()
                + ")");
      }
    }
    return this;
  }

  /** The value of a single-valued option, its default when unset (which may be null). */
  public <T> T get(OptionDef<T> def) {
    List<String> values = raw.get(def.name());
    if (values == null || values.isEmpty()) {
      return def.defaultValue();
    }
    return def.parse(values.get(values.size() - 1));
  }

  /** Every value of a repeatable option, in the order given; empty when unset. */
  public <T> List<T> getAll(OptionDef<T> def) {
    List<String> values = raw.getOrDefault(def.name(), List.of());
    List<T> parsed = new ArrayList<>(values.size());
    for (String v : values) {
      parsed.add(def.parse(v));
    }
    return List.copyOf(parsed);
  }

  /** Whether the option was given at all. */
  public boolean isSet(OptionDef<?> def) {
    return raw.containsKey(def.name());
  }

  private static Map<String, OptionDef<?>> byName(List<OptionDef<?>> declared) {
    Map<String, OptionDef<?>> byName = new LinkedHashMap<>();
    for (OptionDef<?> def : declared) {
      byName.put(def.name(), def);
    }
    return byName;
  }

  @Override
  public String toString() {
    return raw.toString();
  }
}
