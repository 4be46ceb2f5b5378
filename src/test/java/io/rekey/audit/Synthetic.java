package io.rekey.audit;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/** Rows with a known answer for profiler tests: keys, timestamps and cells built by hand. */
final class Synthetic {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01

  private Synthetic() {}

  /** A row of {@code columns} columns in family {@code m}, each with one version at {@code ts}. */
  static List<Cell> row(byte[] key, long ts, int columns, int valueBytes) {
    List<Cell> cells = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      cells.add(
          new KeyValue(
              key,
              Bytes.toBytes("m"),
              Bytes.toBytes(String.format("q%05d", c)),
              ts,
              new byte[valueBytes]));
    }
    return cells;
  }

  /** Keys {@code <epoch-millis>_<user>}: time first, written in key order. */
  static byte[] timeFirstKey(int i) {
    return Bytes.toBytes((T0 + i * 1000L) + "_user" + (i % 50));
  }

  static ProfileSettings settings(List<byte[]> regionStarts, String sourceKey) {
    return ProfileSettings.of(
        regionStarts,
        sourceKey == null ? null : io.rekey.keys.KeyLayout.parse(sourceKey),
        4096,
        8192);
  }

  /** A profile of {@code rows} time-first rows (3 columns each) in one region. */
  static TableProfile timeFirst(int rows, String sourceKey) {
    TableProfile p = new TableProfile(settings(List.of(new byte[0]), sourceKey));
    for (int i = 0; i < rows; i++) {
      byte[] key = timeFirstKey(i);
      p.add(key, row(key, T0 + i * 1000L, 3, 20));
    }
    return p.finish();
  }

  /** The same rows with a one-byte salt (key hash mod 16) in front, over 16 regions. */
  static TableProfile salted(int rows) {
    List<byte[]> starts = new ArrayList<>();
    starts.add(new byte[0]);
    for (int b = 1; b < 16; b++) {
      starts.add(new byte[] {(byte) b});
    }
    List<byte[]> keys = new ArrayList<>();
    List<Long> times = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      byte[] plain = timeFirstKey(i);
      byte salt = (byte) Math.floorMod(io.rekey.keys.Murmur3.hash32(plain, 0), 16);
      keys.add(Bytes.add(new byte[] {salt}, plain));
      times.add(T0 + i * 1000L);
    }
    // Rows must arrive in key order, as a scan gives them.
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      order.add(i);
    }
    order.sort((a, b) -> Bytes.compareTo(keys.get(a), keys.get(b)));
    TableProfile p = new TableProfile(settings(starts, null));
    for (int i : order) {
      p.add(keys.get(i), row(keys.get(i), times.get(i), 3, 20));
    }
    return p.finish();
  }
}
