package io.rekey.rekey;

import io.rekey.read.CellVisibility;
import io.rekey.verify.Counted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What makes one target row read as the source says it should: the row-level logic of {@code rekey
 * repair}, plain Java over cells (tested without a cluster).
 *
 * <p>A cell the source has and the target does not show (missing, or another value at the same
 * timestamp) is written as a Put with its own timestamp; a cell the target shows and the source
 * does not is deleted exactly, by a version delete marker of its column and timestamp, so nothing
 * else written under the key at another time is hidden. Under HBase's default delete behavior a
 * marker already in the target hides a Put of the same version written after it: such a cell cannot
 * be restored by writing it, and is counted as {@code masked} instead (a major compaction of the
 * target drops the marker; families with {@code NEW_VERSION_BEHAVIOR} have no such cells).
 *
 * @param puts the cells to write, under the target key
 * @param deletes version delete markers, under the target key
 * @param masked cells the source has that target markers would hide, under the target key
 */
public record RowFix(List<Cell> puts, List<Cell> deletes, List<Cell> masked) {
  /** A fix that writes nothing. */
  public static final RowFix NONE = new RowFix(List.of(), List.of(), List.of());

  /**
   * @param key the target row
   * @param wanted what a read of the row should return: the source's cells mapped to the key
   * @param shown what a read of the target row returns
   * @param markers the target row's delete markers (from a raw read)
   * @param newVersionBehavior the target's families that use {@code NEW_VERSION_BEHAVIOR}
   */
  public static RowFix of(
      byte[] key,
      List<Cell> wanted,
      List<Cell> shown,
      List<Cell> markers,
      Set<String> newVersionBehavior) {
    Map<String, Cell> current = new HashMap<>();
    for (Cell c : shown) {
      current.put(version(c), c);
    }
    List<Cell> puts = new ArrayList<>();
    List<Cell> masked = new ArrayList<>();
    for (Cell c : wanted) {
      Cell there = current.remove(version(c));
      if (there != null && CellUtil.matchingValue(there, c)) {
        continue;
      }
      Cell put =
          new KeyValue(
              key,
              CellUtil.cloneFamily(c),
              CellUtil.cloneQualifier(c),
              c.getTimestamp(),
              KeyValue.Type.Put,
              CellUtil.cloneValue(c));
      if (there == null && hidden(put, markers, newVersionBehavior)) {
        masked.add(put);
      } else {
        puts.add(put);
      }
    }
    List<Cell> deletes = new ArrayList<>();
    for (Cell c : current.values()) {
      deletes.add(
          new KeyValue(
              key,
              CellUtil.cloneFamily(c),
              CellUtil.cloneQualifier(c),
              c.getTimestamp(),
              KeyValue.Type.Delete));
    }
    return new RowFix(puts, deletes, masked);
  }

  /**
   * The fix of a target row held whole, from the reads a repair makes: the source rows that map to
   * it and the target row as read for their sides' {@link Counted}, and the target row read raw
   * (its delete markers).
   */
  public static RowFix ofReads(
      byte[] key,
      List<Cell[]> sources,
      Counted sourceCounted,
      Cell[] shown,
      Cell[] raw,
      Counted targetCounted,
      Set<String> newVersionBehavior) {
    List<Cell> wanted = new ArrayList<>();
    for (Cell[] source : sources) {
      wanted.addAll(sourceCounted.cellsOfRow(source));
    }
    List<Cell> markers = new ArrayList<>();
    for (Cell c : raw) {
      if (CellUtil.isDelete(c)) {
        markers.add(c);
      }
    }
    return of(key, wanted, targetCounted.cellsOfRow(shown), markers, newVersionBehavior);
  }

  /** Whether the fix writes nothing and leaves nothing it could not write. */
  public boolean none() {
    return puts.isEmpty() && deletes.isEmpty() && masked.isEmpty();
  }

  private static boolean hidden(Cell put, List<Cell> markers, Set<String> newVersionBehavior) {
    if (newVersionBehavior.contains(Bytes.toString(CellUtil.cloneFamily(put)))) {
      return false;
    }
    for (Cell m : markers) {
      if (CellVisibility.hides(m, put)) {
        return true;
      }
    }
    return false;
  }

  /** A cell's column and timestamp, {@code family:qualifier@ts}: what a version delete names. */
  static String version(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "@"
        + c.getTimestamp();
  }
}
