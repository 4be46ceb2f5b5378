package io.rekey.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlockIndex;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store-file sampler on real HFiles written with tiny blocks, so their block index has the
 * levels a multi-gigabyte file has: the sample must be spread over the whole file, made of whole
 * rows, without repeats.
 */
class StoreFileRowSamplerTest {
  static final byte[] F = Bytes.toBytes("m");
  static final int ROWS = 20_000;

  @TempDir Path dir;

  /** {@code rows} rows {@code rowNNNNNN}, three cells each, in blocks of about 256 bytes. */
  static org.apache.hadoop.fs.Path write(Configuration conf, Path dir, int rows, int indexChunk)
      throws Exception {
    conf.setInt(HFileBlockIndex.MAX_CHUNK_SIZE_KEY, indexChunk);
    FileSystem fs = FileSystem.getLocal(conf);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(dir.toUri().toString(), "f");
    try (HFile.Writer w =
        HFile.getWriterFactory(conf, CacheConfig.DISABLED)
            .withPath(fs, path)
            .withFileContext(new HFileContextBuilder().withBlockSize(256).build())
            .create()) {
      for (int i = 0; i < rows; i++) {
        byte[] row = Bytes.toBytes(String.format("row%06d", i));
        for (String q : new String[] {"a", "b", "c"}) {
          w.append(new KeyValue(row, F, Bytes.toBytes(q), 1000L + i, Bytes.toBytes("v" + i)));
        }
      }
    }
    return path;
  }

  static int rowNumber(Result r) {
    return Integer.parseInt(Bytes.toString(r.getRow()).substring(3));
  }

  @Test
  void aDeepIndexIsWalkedDownSoTheSampleCoversTheWholeFileInWholeRows() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path path = write(conf, dir, ROWS, 512);
    FileSystem fs = FileSystem.getLocal(conf);
    HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
    int levels = reader.getTrailer().getNumDataIndexLevels();
    int rootEntries = reader.getTrailer().getDataIndexCount();
    reader.close();
    // What the sampler must see through: few root entries, each over many blocks.
    assertThat(levels).isGreaterThanOrEqualTo(3);
    assertThat(rootEntries).isLessThan(20);

    List<Result> sample = StoreFileRowSampler.sampleFile(conf, fs, path, 20);

    assertThat(sample).hasSize(2_000);
    Set<Integer> seen = new HashSet<>();
    int[] perTenth = new int[10];
    for (Result r : sample) {
      assertThat(r.rawCells()).as(Bytes.toString(r.getRow())).hasSize(3);
      assertThat(seen.add(rowNumber(r))).as("sampled twice: %s", r).isTrue();
      perTenth[rowNumber(r) * 10 / ROWS]++;
    }
    // 20 positions of 100 rows: two in each tenth of the file.
    for (int tenth = 0; tenth < 10; tenth++) {
      assertThat(perTenth[tenth]).as("tenth %d", tenth).isBetween(150, 250);
    }
  }

  @Test
  void aFileWithFewerBlocksThanPositionsIsReadWhole() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path path = write(conf, dir, 40, 128 * 1024);
    FileSystem fs = FileSystem.getLocal(conf);

    List<Result> sample = StoreFileRowSampler.sampleFile(conf, fs, path, 100);

    Set<Integer> rows = new HashSet<>();
    for (Result r : sample) {
      assertThat(r.rawCells()).hasSize(3);
      rows.add(rowNumber(r));
    }
    // Every row, once: each position reads from a row's first cell up to the next position's row.
    assertThat(sample).hasSameSizeAs(rows);
    assertThat(rows).hasSize(40);
  }
}
