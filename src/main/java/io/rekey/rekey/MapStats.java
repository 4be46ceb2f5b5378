package io.rekey.rekey;

import io.rekey.common.CountsLine;
import java.io.Serializable;

/**
 * What the map stage saw in one input partition (or, summed, in all of them).
 *
 * @param cellsSkipped cells left out by an explicit option
 */
public record MapStats(
    long rowsRead, long cellsRead, long rowsRejected, long cellsRejected, long cellsSkipped)
    implements Serializable {
  public static final MapStats ZERO = new MapStats(0, 0, 0, 0, 0);

  public MapStats plus(MapStats o) {
    return new MapStats(
        rowsRead + o.rowsRead,
        cellsRead + o.cellsRead,
        rowsRejected + o.rowsRejected,
        cellsRejected + o.cellsRejected,
        cellsSkipped + o.cellsSkipped);
  }

  /** One line, as stored in the run directory. */
  public String toLine() {
    return CountsLine.of(this);
  }

  public static MapStats fromLine(String line) {
    return CountsLine.parse(MapStats.class, line);
  }
}
