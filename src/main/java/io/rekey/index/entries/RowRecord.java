package io.rekey.index.entries;

import io.rekey.keys.KeyList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A source row's row record: the keys of the entries the index holds for it, kept in the index
 * table's {@value IndexShape#ROWS_FAMILY} family under the source key. An update reads it to find
 * the entries a change retired (an old value, an old bound column, a deleted row), which the source
 * no longer shows once a family keeps one version or a compaction has run.
 *
 * <p>The family keeps two versions and a row's record is never deleted, only overwritten (an empty
 * record when the row has no entries): a run that failed after its record was stored but before
 * every retiring marker was, leaves the record before it as the older version, and the rerun
 * retires the keys of both. Keys are sorted, so equal records are equal bytes. Pure: no Spark.
 */
public final class RowRecord {
  /** The record's one qualifier. */
  public static final byte[] QUALIFIER = Bytes.toBytes("k");

  private RowRecord() {}

  /**
   * The record of {@code keys}: each key's length (two bytes: a row key is at most 32,767) and
   * bytes, in key order, once each.
   */
  public static byte[] encode(List<byte[]> keys) {
    return KeyList.encode(keys);
  }

  /**
   * The keys of a record.
   *
   * @throws IllegalArgumentException when the bytes are no record
   */
  public static List<byte[]> decode(byte[] record) {
    return KeyList.decode(record, "an index row record");
  }

  /**
   * What a read of a row record's versions (newest first) holds.
   *
   * @param latest the keys of the newest version; empty when there is none
   * @param known the keys of every version read: the entries the index may still hold
   * @param exists whether the row has a record at all
   */
  public record Versions(List<byte[]> latest, List<byte[]> known, boolean exists) {
    public static final Versions NONE = new Versions(List.of(), List.of(), false);
  }

  /** The versions of the record in {@code row} (a read of the family, every version). */
  public static Versions versions(Result row, byte[] family) {
    if (row == null || row.isEmpty()) {
      return Versions.NONE;
    }
    List<byte[]> latest = null;
    TreeSet<byte[]> known = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    for (Cell c : row.rawCells()) {
      if (CellUtil.matchingColumn(c, family, QUALIFIER)) {
        List<byte[]> keys = decode(CellUtil.cloneValue(c));
        if (latest == null) {
          latest = keys;
        }
        known.addAll(keys);
      }
    }
    return latest == null ? Versions.NONE : new Versions(latest, new ArrayList<>(known), true);
  }

  /** Whether two key lists hold the same keys. */
  public static boolean same(List<byte[]> a, List<byte[]> b) {
    return Arrays.equals(encode(a), encode(b));
  }
}
