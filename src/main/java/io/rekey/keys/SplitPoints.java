package io.rekey.keys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Split points for pre-splitting a table in a layout. A layout that starts with a salt gets one
 * region per bucket (or {@code k} per bucket, split inside at quantiles of a sample, or evenly on
 * the next byte without one); one that starts with a hash gets evenly spaced points over the hash
 * space; any other layout needs a sample of new keys and gets its quantiles.
 */
public final class SplitPoints {
  private SplitPoints() {}

  /**
   * Split points giving about {@code regions} regions.
   *
   * @param sample new keys of the table (may be empty for salted and hashed layouts)
   * @throws LayoutException when an unsalted, unhashed layout has too small a sample
   */
  public static List<byte[]> plan(KeyLayout layout, int regions, List<byte[]> sample) {
    if (regions < 1) {
      throw new LayoutException("regions is " + regions + " but must be 1 or more", 0);
    }
    Part first = layout.parts().get(0);
    if (first instanceof SaltPart salt) {
      int perBucket = Math.max(1, regions / salt.buckets());
      return forSalt(layout, salt, perBucket, sample);
    }
    if (first instanceof HashPart || first instanceof HashPairPart) {
      return evenly(layout.mode(), regions);
    }
    return quantiles(sample, regions);
  }

  private static List<byte[]> forSalt(
      KeyLayout layout, SaltPart salt, int perBucket, List<byte[]> sample) {
    KeyMode mode = layout.mode();
    List<byte[]> points = new ArrayList<>();
    for (int b = 0; b < salt.buckets(); b++) {
      byte[] prefix = salt.encodeBucket(b, mode);
      if (b > 0) {
        points.add(prefix);
      }
      if (perBucket == 1) {
        continue;
      }
      List<byte[]> inBucket = new ArrayList<>();
      for (byte[] key : sample) {
        if (Bytes.startsWith(key, prefix)) {
          inBucket.add(key);
        }
      }
      if (inBucket.size() >= perBucket * 2) {
        points.addAll(quantiles(inBucket, perBucket));
      } else {
        for (byte[] inner : evenly(mode, perBucket)) {
          points.add(ScanPlanner.concat(prefix, inner));
        }
      }
    }
    return points;
  }

  /**
   * {@code regions - 1} points spread evenly over the first bytes (binary) or hex digits (text).
   */
  static List<byte[]> evenly(KeyMode mode, int regions) {
    List<byte[]> points = new ArrayList<>();
    for (int i = 1; i < regions; i++) {
      long value = (long) i * 65536 / regions;
      if (mode == KeyMode.BINARY) {
        points.add(new byte[] {(byte) (value >>> 8), (byte) value});
      } else {
        points.add(String.format("%04x", value).getBytes(StandardCharsets.US_ASCII));
      }
    }
    return points;
  }

  /**
   * {@code regions - 1} points at evenly spaced positions of the sorted, distinct sample.
   *
   * @throws LayoutException when the sample has fewer distinct keys than regions
   */
  public static List<byte[]> quantiles(List<byte[]> sample, int regions) {
    TreeSet<byte[]> sorted = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    sorted.addAll(sample);
    if (regions == 1) {
      return List.of();
    }
    if (sorted.size() < regions) {
      throw new LayoutException(
          "this layout does not start with a salt or hash, so split points come from a sample of"
              + " new keys: "
              + regions
              + " regions need at least "
              + regions
              + " distinct keys, the sample has "
              + sorted.size(),
          0);
    }
    List<byte[]> keys = new ArrayList<>(sorted);
    List<byte[]> points = new ArrayList<>();
    for (int i = 1; i < regions; i++) {
      byte[] point = keys.get((int) ((long) i * keys.size() / regions));
      if (points.isEmpty() || Bytes.compareTo(points.get(points.size() - 1), point) < 0) {
        points.add(point);
      }
    }
    return points;
  }
}
