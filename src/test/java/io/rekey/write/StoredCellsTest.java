package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.write.LoadReconciler.Stored;
import io.rekey.write.StoreFileCensus.Piece;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stored-cell proof and the reconciliation's reading of a census, with no store files: a count
 * over the written is a file loaded twice and stops the run; a count under it is a loss unless
 * compactions replaced the run's files. {@code ExactlyOnceIT} counts real store files.
 */
class StoredCellsTest {
  static final TableName T = TableName.valueOf("t");

  static Ledger ledger(long... cells) {
    List<Ledger.Entry> entries = new ArrayList<>();
    for (int i = 0; i < cells.length; i++) {
      entries.add(
          new Ledger.Entry("d/f" + i, "d", 100, cells[i], "61", "62", Ledger.State.LOADED, null));
    }
    return new Ledger("run1", 0, 1, entries);
  }

  /** A census that finds {@code stored[i]} cells of entry i, one store file per piece. */
  static StoreFileCensus.Result census(long otherCells, long... stored) {
    Map<String, List<Piece>> pieces = new HashMap<>();
    for (int i = 0; i < stored.length; i++) {
      if (stored[i] > 0) {
        String tag = HFiles.tag("run1", "d/f" + i);
        pieces.put(
            tag,
            List.of(new Piece(tag, stored[i], new byte[] {'a'}, new byte[] {'b'}, "store/" + i)));
      }
    }
    return new StoreFileCensus.Result(pieces, stored.length, otherCells);
  }

  @Test
  void exactlyTheCellsWrittenProveTheLoad() {
    StoredCells proof = StoredCells.prove(T, ledger(10, 20), census(0, 10, 20));
    assertThat(proof.proven()).isTrue();
    assertThat(proof.line()).isEqualTo("stored 30 = written 30 (counted from 2 store files)");
  }

  @Test
  void anEntryStoredTwiceStopsTheRunNamingItsFiles() {
    assertThatThrownBy(() -> StoredCells.prove(T, ledger(10, 20), census(0, 20, 20)))
        .isInstanceOf(RekeyException.class)
        .hasMessageStartingWith(
            "t stores 20 cells of d/f0, which holds 10: it was loaded more than once")
        .hasMessageContaining("store/0");
  }

  @Test
  void missingCellsAreALossUnlessCompactionsReplacedTheRunsFiles() {
    assertThatThrownBy(() -> StoredCells.prove(T, ledger(10, 20), census(0, 10, 5)))
        .isInstanceOf(RekeyException.class)
        .hasMessageStartingWith("t stores 15 of the 30 cells this run wrote and loaded");
    StoredCells compacted = StoredCells.prove(T, ledger(10, 20), census(15, 10, 5));
    assertThat(compacted.proven()).isFalse();
    assertThat(compacted.note()).startsWith("not proven: compactions replaced");
  }

  @ParameterizedTest(name = "{0} of {1} cells stored: {2}")
  @CsvSource({
    "0, 10, NONE",
    "10, 10, WHOLE",
    "4, 10, PART",
    "1, 10, PART",
    "11, 10, TWICE",
    "20, 10, TWICE"
  })
  void theReconciliationReadsAnEntrysStoredCells(long stored, long cells, Stored expected) {
    assertThat(Stored.of(stored, cells)).isEqualTo(expected);
  }
}
