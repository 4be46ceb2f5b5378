package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.run.RunFiles;
import io.rekey.write.StoreFileCensus.Piece;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an interrupted load leaves becomes the ledger's next state, decided from a census and the
 * run's own HFiles (real ones, on the local filesystem) with no cluster: a whole entry is marked
 * loaded, a part-stored one is cut down to a remainder file of exactly the rows not stored, from
 * the file or from the halves HBase split it into, and what cannot be completed exactly stops the
 * run. {@code ExactlyOnceIT} makes HBase split and refuse a load for real.
 */
class LoadReconcilerTest {
  private static final TableName TABLE = TableName.valueOf("t");
  private static final String RUN_ID = "run1";
  private static final String ENTRY = "m/p00000-001";
  private static final FamilySettings M =
      new FamilySettings("m", "NONE", "NONE", null, 65536, "NONE");

  @TempDir java.nio.file.Path dir;
  private Configuration conf;
  private FileSystem fs;
  private Path run;

  @BeforeEach
  void localRun() throws IOException {
    conf = new Configuration();
    run = new Path(dir.toUri());
    fs = run.getFileSystem(conf);
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%02d", i));
  }

  /** Writes rows {@code from..to} (one cell each) as an HFile tagged as the entry. */
  private Path hfile(Path path, int from, int to) throws IOException {
    StoreFileWriter w = HFiles.open(conf, fs, path, M, TABLE.getNameAsString());
    for (int i = from; i <= to; i++) {
      w.append(new KeyValue(row(i), Bytes.toBytes("m"), Bytes.toBytes("q"), 1L, row(i)));
    }
    HFiles.close(w, HFiles.tag(RUN_ID, ENTRY));
    return path;
  }

  private Path entryFile() {
    return new Path(RunFiles.hfiles(run), ENTRY);
  }

  private static Ledger ledger(long cells) {
    return new Ledger(
        RUN_ID,
        0,
        1,
        List.of(
            new Ledger.Entry(
                ENTRY, "m", 100, cells, "7230", "7231", Ledger.State.COMMITTED, null)));
  }

  /** A census that finds the rows {@code from..to} of the entry stored, {@code cells} cells. */
  private static StoreFileCensus.Result stored(long cells, int from, int to) {
    String tag = HFiles.tag(RUN_ID, ENTRY);
    Map<String, List<Piece>> pieces = new HashMap<>();
    if (cells > 0) {
      pieces.put(tag, List.of(new Piece(tag, cells, row(from), row(to), "store/a")));
    }
    return new StoreFileCensus.Result(pieces, 1, 0);
  }

  private Ledger reconcile(Ledger ledger, StoreFileCensus.Result census) throws IOException {
    return LoadReconciler.reconcile(conf, TABLE, run, ledger, Map.of("m", M), census);
  }

  private List<String> rowsOf(Path file) throws IOException {
    List<String> rows = new ArrayList<>();
    try (HFile.Reader reader = HFile.createReader(fs, file, CacheConfig.DISABLED, true, conf)) {
      HFileScanner scanner = reader.getScanner(conf, false, false);
      if (scanner.seekTo()) {
        do {
          Cell c = scanner.getCell();
          rows.add(Bytes.toString(CellUtil.cloneRow(c)));
        } while (scanner.next());
      }
    }
    return rows;
  }

  @Test
  void anEntryTheStoreFilesDoNotHoldStaysPendingAndOneTheyHoldWholeIsMarkedLoaded()
      throws Exception {
    hfile(entryFile(), 0, 19);
    assertThat(reconcile(ledger(20), stored(0, 0, 0)).pending()).hasSize(1);

    Ledger after = reconcile(ledger(20), stored(20, 0, 19));
    assertThat(after.pending()).isEmpty();
    assertThat(after.entries()).singleElement().satisfies(e -> assertThat(e.cells()).isEqualTo(20));
    assertThat(Ledger.read(conf, run)).isEqualTo(after);
  }

  @Test
  void anEntryStoredInPartIsCutDownToARemainderOfExactlyTheRowsNotStored() throws Exception {
    hfile(entryFile(), 0, 19);

    Ledger after = reconcile(ledger(20), stored(8, 0, 7));

    assertThat(after.entries()).hasSize(2);
    Ledger.Entry done = after.entries().get(0);
    Ledger.Entry rest = after.entries().get(1);
    assertThat(done.name()).isEqualTo(ENTRY);
    assertThat(done.isLoaded()).isTrue();
    assertThat(done.cells()).isEqualTo(8);
    assertThat(rest.name()).isEqualTo(ENTRY + "r1");
    assertThat(rest.isLoaded()).isFalse();
    assertThat(rest.cells()).isEqualTo(12);
    assertThat(rest.firstRow()).isEqualTo(HexFormat.of().formatHex(row(8)));
    assertThat(rest.lastRow()).isEqualTo(HexFormat.of().formatHex(row(19)));
    Path remainder = new Path(RunFiles.hfiles(run), rest.name());
    assertThat(rowsOf(remainder)).hasSize(12).startsWith("r08").endsWith("r19");
    // The original is never loaded again: it is gone, and the ledger on disk says so.
    assertThat(fs.exists(entryFile())).isFalse();
    assertThat(Ledger.read(conf, run)).isEqualTo(after);
  }

  @Test
  void theHalvesHBaseSplitAFileIntoMakeTheRemainderWhenTheFileIsGoneACellTheyShareOnce()
      throws Exception {
    Path splits = new Path(new Path(RunFiles.hfiles(run), "m"), ".tmp");
    hfile(new Path(splits, "bottom"), 0, 10);
    hfile(new Path(splits, "top"), 10, 19);

    Ledger after = reconcile(ledger(20), stored(5, 0, 4));

    Ledger.Entry rest = after.entries().get(1);
    assertThat(rest.cells()).isEqualTo(15);
    assertThat(rowsOf(new Path(RunFiles.hfiles(run), rest.name())))
        .hasSize(15)
        .doesNotHaveDuplicates()
        .startsWith("r05")
        .endsWith("r19");
    assertThat(fs.exists(new Path(splits, "bottom"))).isFalse();
    assertThat(fs.exists(new Path(splits, "top"))).isFalse();
  }

  @Test
  void whatCannotBeCompletedExactlyStopsTheRunAndLeavesNoRemainder() throws Exception {
    // Stored twice: the census finds more cells than the entry has.
    hfile(entryFile(), 0, 19);
    assertThatThrownBy(() -> reconcile(ledger(20), stored(40, 0, 19)))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("store/a");

    // The census's pieces and the file disagree: 8 cells said stored where 5 rows are.
    assertThatThrownBy(() -> reconcile(ledger(20), stored(8, 0, 4)))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("HBase stored 8 of them and 15 are left to load")
        .hasMessageContaining("cannot be completed exactly");
    assertThat(fs.exists(new Path(RunFiles.hfiles(run), ENTRY + "r1"))).isFalse();
    assertThat(fs.exists(entryFile())).isTrue();

    // Neither the file nor any half is left to read the rest from.
    fs.delete(entryFile(), false);
    assertThatThrownBy(() -> reconcile(ledger(20), stored(8, 0, 7)))
        .isInstanceOf(RekeyException.class)
        .hasMessageContaining("HBase stored 8 of the 20 cells of " + ENTRY)
        .hasMessageContaining("the rest cannot be loaded exactly");
  }
}
