package io.rekey.index;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.Times;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code index lookup}.
 *
 * @param from the oldest cell timestamp included, or null
 * @param to the first cell timestamp excluded, or null
 */
public record IndexLookupOptions(
    IndexDefinition definition, String value, Long from, Long to, int limit, boolean checkSource) {
  public static final OptionDef<String> VALUE =
      OptionDef.text("value", "V", "the indexed value to look up").required();
  public static final OptionDef<String> FROM =
      OptionDef.text("from", "TIME", "only entries at or after this (epoch millis or ISO-8601)");
  public static final OptionDef<String> TO =
      OptionDef.text("to", "TIME", "only entries before this (epoch millis or ISO-8601)");
  public static final OptionDef<Long> LIMIT =
      OptionDef.number(
              "limit", "N", "entries shown and source rows fetched, newest first", 0, 100_000)
          .withDefault(20L);
  public static final OptionDef<Boolean> CHECK_SOURCE =
      OptionDef.flag(
          "check-source",
          "also count the source rows with the value by a filter scan of the whole source, to"
              + " check the index");

  public static List<OptionDef<?>> declared() {
    List<OptionDef<?>> out = new ArrayList<>(IndexDefinition.declaredWithFile());
    out.addAll(List.of(VALUE, FROM, TO, LIMIT, CHECK_SOURCE));
    return out;
  }

  public static IndexLookupOptions from(OptionValues values) {
    Long from = values.get(FROM) == null ? null : Times.parse(FROM.name(), values.get(FROM));
    Long to = values.get(TO) == null ? null : Times.parse(TO.name(), values.get(TO));
    if (from != null && to != null && to <= from) {
      throw InvalidOptionException.of(
          TO.name(),
          values.get(TO),
          "is not after --from " + values.get(FROM) + "; nothing can match");
    }
    IndexDefinition definition = IndexDefinition.from(values);
    if (definition.field() != null && (from != null || to != null)) {
      throw InvalidOptionException.of(
          from != null ? FROM.name() : TO.name(),
          values.get(from != null ? FROM : TO),
          "cannot apply: the entries of an index on a key field carry no time (a key field has no"
              + " cell of its own); look up without --from and --to");
    }
    return new IndexLookupOptions(
        definition,
        values.get(VALUE),
        from,
        to,
        values.get(LIMIT).intValue(),
        values.get(CHECK_SOURCE));
  }
}
