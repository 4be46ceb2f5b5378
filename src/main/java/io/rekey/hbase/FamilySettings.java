package io.rekey.hbase;

import java.io.Serializable;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;

/**
 * The settings an HFile of a family is written with, taken from the target table's family.
 *
 * @param name the family
 * @param compression COMPRESSION
 * @param bloomType BLOOMFILTER
 * @param bloomParam the prefix length for ROWPREFIX_FIXED_LENGTH blooms, else null
 * @param blockSize BLOCKSIZE in bytes
 * @param dataBlockEncoding DATA_BLOCK_ENCODING
 */
public record FamilySettings(
    String name,
    String compression,
    String bloomType,
    String bloomParam,
    int blockSize,
    String dataBlockEncoding)
    implements Serializable {
  public static FamilySettings of(ColumnFamilyDescriptor f) {
    return new FamilySettings(
        f.getNameAsString(),
        f.getCompressionType().name(),
        f.getBloomFilterType().name(),
        f.getConfigurationValue("RowPrefixBloomFilter.prefix_length"),
        f.getBlocksize(),
        f.getDataBlockEncoding().name());
  }
}
