package io.rekey.stream.endpoint;

import io.rekey.keys.KeyList;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where the target holds each source row of a stream whose key is bound to a column: the keys a row
 * is held under, which an edit that does not touch the bound column cannot tell. Kept in the fence
 * table on the target's cluster, one row per source row ({@code 0xFA}, the peer id, a zero byte and
 * the source row; no fence row can read as one, as the peer id never holds a zero byte).
 *
 * <p>Two kinds of cells: the seed, written when the stream starts from the rows the copy wrote (one
 * cell per target key, the key as qualifier, so that seeding tasks which meet one source row under
 * two keys add up), and the endpoint's own record, the set of keys in one cell of the empty
 * qualifier, written after the target writes it describes, in edit order. The record, once there,
 * is the truth.
 */
public final class KeyMap {
  private static final byte ROWS = (byte) 0xFA;
  private static final byte[] RECORD = new byte[0];
  private static final byte[] SEED_VALUE = new byte[0];

  private KeyMap() {}

  static byte[] row(String peerId, byte[] sourceRow) {
    return Bytes.add(prefix(peerId), sourceRow);
  }

  /** The start of every key map row of stream {@code peerId}. */
  public static byte[] prefix(String peerId) {
    return Bytes.add(new byte[] {ROWS}, Bytes.toBytes(peerId), new byte[] {0});
  }

  /** The seed cell of one row the copy wrote: {@code sourceRow} is held under {@code targetKey}. */
  public static Put seed(String peerId, byte[] sourceRow, byte[] targetKey) {
    return new Put(row(peerId, sourceRow)).addColumn(Fences.FAMILY, targetKey, SEED_VALUE);
  }

  /** The endpoint's record: {@code sourceRow} is held under {@code keys} (none: nowhere). */
  static Put record(String peerId, byte[] sourceRow, List<byte[]> keys) {
    return new Put(row(peerId, sourceRow)).addColumn(Fences.FAMILY, RECORD, KeyList.encode(keys));
  }

  /**
   * The keys {@code map}'s cells say a source row is held under; null when the map has nothing of
   * the row (the copy did not write it and the stream never placed it).
   */
  static List<byte[]> keys(Result map) {
    if (map == null || map.isEmpty()) {
      return null;
    }
    byte[] record = map.getValue(Fences.FAMILY, RECORD);
    if (record != null) {
      return KeyList.decode(record, "a stream's key map record");
    }
    List<byte[]> out = new ArrayList<>();
    for (Cell c : map.rawCells()) {
      out.add(CellUtil.cloneQualifier(c));
    }
    return out;
  }

  /** The keys each of {@code rows} is held under ({@link #keys}), in one batched read. */
  static Map<ByteBuffer, List<byte[]>> read(Table fence, String peerId, Collection<byte[]> rows)
      throws IOException {
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(new Get(row(peerId, r)).addFamily(Fences.FAMILY));
    }
    Result[] results = fence.get(gets);
    Map<ByteBuffer, List<byte[]>> out = new HashMap<>();
    int i = 0;
    for (byte[] r : rows) {
      out.put(ByteBuffer.wrap(r), keys(results[i++]));
    }
    return out;
  }
}
