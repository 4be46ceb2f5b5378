package io.rekey.schema;

/**
 * A column family's settings as HBase reports them.
 *
 * @param name the family
 * @param maxVersions VERSIONS
 * @param minVersions MIN_VERSIONS
 * @param ttlSeconds the time to live; {@link Integer#MAX_VALUE} is HBase's FOREVER
 * @param compression COMPRESSION
 * @param bloomFilter BLOOMFILTER
 * @param blockSize BLOCKSIZE in bytes
 * @param dataBlockEncoding DATA_BLOCK_ENCODING
 * @param inMemory IN_MEMORY
 * @param blockCache BLOCKCACHE
 */
public record FamilyDescription(
    String name,
    int maxVersions,
    int minVersions,
    int ttlSeconds,
    String compression,
    String bloomFilter,
    int blockSize,
    String dataBlockEncoding,
    boolean inMemory,
    boolean blockCache) {
  /** HBase's value for "no TTL". */
  public static final int FOREVER = Integer.MAX_VALUE;

  public boolean hasTtl() {
    return ttlSeconds != FOREVER;
  }
}
