package io.rekey.write;

import io.rekey.hbase.FamilySettings;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Opens and closes HFiles the way a region server would write them for a family (compression, bloom
 * filter, block size, encoding, checksums), each tagged with the ledger entry it belongs to. The
 * tag is a file-info key that HBase keeps when it loads the file and copies into both halves when
 * it splits one at a region boundary, so the target's store files say which entry they hold ({@link
 * StoreFileCensus}).
 */
public final class HFiles {
  /** The file-info key holding {@code RUN-ID/ENTRY-NAME}; not under HBase's reserved "hfile.". */
  public static final byte[] ENTRY_KEY = Bytes.toBytes("REKEY_ENTRY");

  private HFiles() {}

  /** A new HFile at {@code path} with the family's settings. */
  public static StoreFileWriter open(
      Configuration conf, FileSystem fs, Path path, FamilySettings f, String tableName)
      throws IOException {
    BloomType bloom = BloomType.valueOf(f.bloomType());
    Configuration writerConf = conf;
    if (bloom == BloomType.ROWPREFIX_FIXED_LENGTH && f.bloomParam() != null) {
      writerConf = new Configuration(conf);
      writerConf.set(BloomFilterUtil.PREFIX_LENGTH_KEY, f.bloomParam());
    }
    HFileContextBuilder context =
        new HFileContextBuilder()
            .withCompression(Compression.Algorithm.valueOf(f.compression()))
            .withDataBlockEncoding(DataBlockEncoding.valueOf(f.dataBlockEncoding()))
            .withChecksumType(StoreUtils.getChecksumType(writerConf))
            .withBytesPerCheckSum(StoreUtils.getBytesPerChecksum(writerConf))
            .withBlockSize(f.blockSize())
            .withColumnFamily(Bytes.toBytes(f.name()))
            .withTableName(Bytes.toBytes(tableName))
            .withCreateTime(System.currentTimeMillis());
    if (HFile.getFormatVersion(writerConf) >= HFile.MIN_FORMAT_VERSION_WITH_TAGS) {
      context.withIncludesTags(true);
    }
    return new StoreFileWriter.Builder(writerConf, CacheConfig.DISABLED, fs)
        .withFilePath(path)
        .withBloomType(bloom)
        .withFileContext(context.build())
        .build();
  }

  /** Finishes a file as a bulk-load file of ledger entry {@code tag}. */
  public static void close(StoreFileWriter writer, String tag) throws IOException {
    long now = System.currentTimeMillis();
    writer.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(now));
    writer.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes("hbase-rekey"));
    // Several files may cover one region: none of them is the product of a major compaction.
    writer.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(false));
    writer.appendFileInfo(ENTRY_KEY, Bytes.toBytes(tag));
    writer.appendTrackedTimestampsToMetadata();
    writer.close();
  }

  /** The tag of ledger entry {@code name} of run {@code runId}. */
  public static String tag(String runId, String name) {
    return runId + "/" + name;
  }
}
