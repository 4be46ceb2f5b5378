package io.rekey.keys;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which key ranges hold the rows with given field values: what a reader of a re-keyed table needs.
 * A salt over fields that are not given fans out into one range per bucket; a salt over given
 * fields is computed, giving one range. Equal values extend the prefix part by part; a time range
 * on a {@code reverse_ts} part (or a fixed-width number) ends it, with reversed bounds flipped so
 * the newest rows come first.
 */
public final class ScanPlanner {
  private ScanPlanner() {}

  /**
   * A half-open range of numbers, {@code from} included, {@code to} excluded.
   *
   * @param from the lowest value included
   * @param to the first value excluded
   */
  public record NumberRange(long from, long to) {
    public NumberRange {
      if (to <= from) {
        throw new IllegalArgumentException("range " + from + ".." + to + " is empty");
      }
    }
  }

  /**
   * The ranges to scan, in key order.
   *
   * @param equal fields with a known value
   * @param ranges fields with a range of values (numbers only)
   */
  public static List<KeyRange> plan(
      KeyLayout layout, Map<String, FieldValue> equal, Map<String, NumberRange> ranges) {
    Fields values = new Fields(equal, null);
    List<byte[]> prefixes = new ArrayList<>();
    prefixes.add(new byte[0]);
    List<Part> parts = layout.parts();
    KeyMode mode = layout.mode();
    for (int i = 0; i < parts.size(); i++) {
      Part part = parts.get(i);
      Part.Ending ending = layout.endings().get(i);
      if (part instanceof SaltPart salt && !equal.keySet().containsAll(salt.inputs())) {
        List<byte[]> fanned = new ArrayList<>();
        for (byte[] p : prefixes) {
          for (int b = 0; b < salt.buckets(); b++) {
            fanned.add(concat(p, salt.encodeBucket(b, mode)));
          }
        }
        prefixes = fanned;
        continue;
      }
      if (part instanceof LiteralPart || equal.keySet().containsAll(part.inputs())) {
        byte[] encoded = encode(part, values, mode, ending);
        prefixes = appendAll(prefixes, encoded);
        if (ending != null && ending.kind() == Part.Ending.Kind.END) {
          // The last part, given exactly: only the key itself, not keys that extend it.
          List<KeyRange> exact = new ArrayList<>();
          for (byte[] p : prefixes) {
            exact.add(new KeyRange(p, concat(p, new byte[] {0})));
          }
          return exact;
        }
        continue;
      }
      NumberRange range = rangeFor(part, ranges);
      if (range != null) {
        return ranged(prefixes, part, range, mode);
      }
      break;
    }
    List<KeyRange> out = new ArrayList<>();
    for (byte[] p : prefixes) {
      out.add(KeyRange.prefix(p));
    }
    return out;
  }

  private static NumberRange rangeFor(Part part, Map<String, NumberRange> ranges) {
    if (part instanceof ReverseTsPart r) {
      return ranges.get(r.field());
    }
    if (part instanceof FieldPart f
        && f.field().type().isNumber()
        && f.fixedLength(KeyMode.TEXT) >= 0) {
      return ranges.get(f.field().name());
    }
    if (part instanceof FieldPart f && f.field().type().isNumber()) {
      // Binary numbers are fixed-width; text numbers without a width do not sort numerically.
      return ranges.get(f.field().name());
    }
    return null;
  }

  private static List<KeyRange> ranged(
      List<byte[]> prefixes, Part part, NumberRange range, KeyMode mode) {
    byte[] low;
    byte[] high;
    try {
      if (part instanceof ReverseTsPart r) {
        // Reversed: the newest time (to - 1) has the smallest key.
        low = r.encodeValue(range.to() - 1, mode);
        high = r.encodeValue(Math.max(0, range.from()), mode);
      } else {
        FieldPart f = (FieldPart) part;
        if (mode == KeyMode.TEXT && f.field().width() == 0) {
          throw new LayoutException(
              f.describe()
                  + " is plain decimal text, which does not sort numerically; give it a"
                  + " width to scan a range",
              f.column());
        }
        if (range.from() < 0) {
          throw new LayoutException(
              "a range scan on " + f.describe() + " needs values of 0 or more", f.column());
        }
        low = encodeNumber(f, range.from(), mode);
        high = encodeNumber(f, range.to() - 1, mode);
      }
    } catch (KeyReject e) {
      throw new LayoutException("cannot scan that range: " + e.detail(), part.column());
    }
    List<KeyRange> out = new ArrayList<>();
    for (byte[] p : prefixes) {
      out.add(new KeyRange(concat(p, low), KeyRange.prefixSuccessor(concat(p, high))));
    }
    return out;
  }

  private static byte[] encodeNumber(FieldPart f, long v, KeyMode mode) throws KeyReject {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.encode(
        new Fields(Map.of(f.field().name(), FieldValue.of(v)), null), mode, Part.Ending.END, out);
    return out.toByteArray();
  }

  private static byte[] encode(Part part, Fields values, KeyMode mode, Part.Ending ending) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      part.encode(values, mode, ending, out);
    } catch (KeyReject e) {
      throw new LayoutException("cannot scan for that value: " + e.detail(), part.column());
    }
    return out.toByteArray();
  }

  private static List<byte[]> appendAll(List<byte[]> prefixes, byte[] suffix) {
    List<byte[]> out = new ArrayList<>(prefixes.size());
    for (byte[] p : prefixes) {
      out.add(concat(p, suffix));
    }
    return out;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
