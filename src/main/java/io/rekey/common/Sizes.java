package io.rekey.common;

/** Byte counts for people: {@code 1.5 MiB}. */
public final class Sizes {
  private Sizes() {}

  public static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format("%.1f %s", value, units[unit]);
  }
}
