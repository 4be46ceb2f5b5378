package io.rekey.common;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.StringJoiner;

/**
 * A record of counts ({@code long} components only) as one line of numbers, in component order:
 * what each task leaves in the run directory for the driver to sum. One codec for every stage's
 * counts, so a count added to a record is written and read back without a second list to keep in
 * step. It runs once per task, so reflection costs nothing that shows.
 */
public final class CountsLine {
  private CountsLine() {}

  /** {@code counts}' components, space-separated. */
  public static String of(Record counts) {
    StringJoiner line = new StringJoiner(" ");
    try {
      for (RecordComponent c : counts.getClass().getRecordComponents()) {
        line.add(String.valueOf((long) c.getAccessor().invoke(counts)));
      }
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read the counts of " + counts, e);
    }
    return line.toString();
  }

  /** Reads a line written by {@link #of} back into a {@code type}. */
  public static <R extends Record> R parse(Class<R> type, String line) {
    RecordComponent[] components = type.getRecordComponents();
    String[] fields = line.trim().split(" ");
    if (fields.length != components.length) {
      throw new IllegalArgumentException(
          "a line of " + type.getSimpleName() + " has " + components.length + " counts: " + line);
    }
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      values[i] = Long.parseLong(fields[i]);
    }
    try {
      Constructor<R> canonical = type.getDeclaredConstructor(types);
      return canonical.newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a " + type.getSimpleName() + " of " + line, e);
    }
  }
}
