package io.rekey.keys;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a designer wants to see of a mapping before any migration: both layouts part by part,
 * whether the mapping is injective and decodable, what given old keys become, split points, and the
 * key ranges a reader would scan. Pure: built from the mapping and the inputs alone.
 *
 * @param source the source layout
 * @param target the target layout
 * @param injective whether no two source keys can map to one target key
 * @param lostFields source fields the target key leaves out
 * @param injectivity why the mapping is or is not injective
 * @param decodable whether the source fields can be read back from the target key
 * @param unrecoverableFields source fields the target key cannot give back
 * @param keys one entry per old key given
 * @param splitPoints null when none were asked for and the layout has no salt
 * @param scan null when no scan was asked for
 */
public record LayoutPreview(
    LayoutSummary source,
    LayoutSummary target,
    boolean injective,
    List<String> lostFields,
    String injectivity,
    boolean decodable,
    List<String> unrecoverableFields,
    List<KeyPreview> keys,
    List<KeyText> splitPoints,
    ScanPreview scan) {

  /**
   * A layout as the preview shows it.
   *
   * @param spec the layout in its canonical form
   * @param mode binary or text
   * @param parts the layout's parts in key order, described
   * @param fields field name to type
   */
  public record LayoutSummary(
      String spec, String mode, List<String> parts, Map<String, String> fields) {
    static LayoutSummary of(KeyLayout layout) {
      Map<String, String> fields = new LinkedHashMap<>();
      layout.fields().forEach((name, f) -> fields.put(name, f.type().specName()));
      return new LayoutSummary(
          layout.canonicalSpec(),
          layout.mode().name().toLowerCase(java.util.Locale.ROOT),
          layout.describeParts(),
          fields);
    }
  }

  /**
   * One old key and what it becomes.
   *
   * @param oldKey the old key given
   * @param fields what the source layout reads, printable
   * @param newKey null when rejected
   * @param newKeyLength the new key's length in bytes (0 when rejected)
   * @param decoded what reading the new key back gives
   * @param rejectReason null unless rejected
   * @param rejectDetail what was wrong with the key, or null
   */
  public record KeyPreview(
      KeyText oldKey,
      Map<String, String> fields,
      KeyText newKey,
      int newKeyLength,
      Map<String, String> decoded,
      String rejectReason,
      String rejectDetail) {}

  /**
   * The ranges for one query.
   *
   * @param query field name to the value asked for
   * @param ranges the [start, stop) key ranges a reader scans, one per salt bucket
   */
  public record ScanPreview(Map<String, String> query, List<KeyText[]> ranges) {}

  /**
   * Builds the preview.
   *
   * @param oldKeys old keys to map
   * @param columns column values for every key (family:qualifier → value)
   * @param regions regions to split into, or 0 for the salt's buckets (none when unsalted)
   * @param equal scan query: fields with a value (empty and no ranges: no scan)
   * @param ranges scan query: number fields with a range
   */
  public static LayoutPreview of(
      KeyMapping mapping,
      List<byte[]> oldKeys,
      Map<String, byte[]> columns,
      int regions,
      Map<String, FieldValue> equal,
      Map<String, ScanPlanner.NumberRange> ranges) {
    ColumnValues cols = (family, qualifier) -> columns.get(family + ":" + qualifier);
    List<KeyPreview> previews = new ArrayList<>();
    List<byte[]> newKeys = new ArrayList<>();
    for (byte[] old : oldKeys) {
      Map<String, String> fields = new LinkedHashMap<>();
      try {
        mapping.sourceFields(old, cols).forEach((k, v) -> fields.put(k, v.printable()));
        byte[] key = mapping.map(old, cols);
        newKeys.add(key);
        Map<String, String> decoded = new LinkedHashMap<>();
        mapping.target().decode(key).forEach((k, v) -> decoded.put(k, v.printable()));
        previews.add(
            new KeyPreview(
                KeyText.of(old), fields, KeyText.of(key), key.length, decoded, null, null));
      } catch (KeyReject r) {
        previews.add(
            new KeyPreview(
                KeyText.of(old), fields, null, 0, Map.of(), r.reason().name(), r.detail()));
      }
    }
    KeyLayout target = mapping.target();
    List<KeyText> splits = null;
    if (regions > 0 || target.leadingSaltBuckets() > 0) {
      int n = regions > 0 ? regions : target.leadingSaltBuckets();
      splits = new ArrayList<>();
      for (byte[] p : SplitPoints.plan(target, n, newKeys)) {
        splits.add(KeyText.of(p));
      }
    }
    ScanPreview scan = null;
    if (!equal.isEmpty() || !ranges.isEmpty()) {
      Map<String, String> query = new LinkedHashMap<>();
      equal.forEach((k, v) -> query.put(k, v.printable()));
      ranges.forEach((k, r) -> query.put(k, r.from() + ".." + r.to()));
      List<KeyText[]> out = new ArrayList<>();
      for (KeyRange r : ScanPlanner.plan(target, equal, ranges)) {
        out.add(new KeyText[] {KeyText.of(r.start()), KeyText.of(r.stop())});
      }
      scan = new ScanPreview(query, out);
    }
    Injectivity inj = mapping.injectivity();
    return new LayoutPreview(
        LayoutSummary.of(mapping.source()),
        LayoutSummary.of(target),
        inj.injective(),
        inj.lostFields(),
        inj.explanation(),
        target.isDecodable(),
        List.copyOf(target.unrecoverableFields()),
        previews,
        splits,
        scan);
  }
}
