package io.rekey.schema;

import io.rekey.keys.KeyText;

/**
 * One region: its key range, where it is served and how much it stores. HBase reports region sizes
 * in whole mebibytes, so a region under 1 MiB shows 0 bytes.
 *
 * @param name the region's encoded name
 * @param startKey its start key
 * @param endKey its end key
 * @param server the region server holding it
 * @param storeFileBytes bytes in store files (HFiles) on disk
 * @param storeFileCount its store files
 * @param memStoreBytes bytes written but not flushed yet
 */
public record RegionDescription(
    String name,
    KeyText startKey,
    KeyText endKey,
    String server,
    long storeFileBytes,
    int storeFileCount,
    long memStoreBytes) {
  /** What the region holds, flushed or not: the size the skew check compares. */
  public long totalBytes() {
    return storeFileBytes + memStoreBytes;
  }
}
