package io.rekey.verify;

import static io.rekey.testing.StageTest.CellSpec.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.testing.StageTest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The verify stages' digests ({@link VerifyJob#compare}) over rows held in memory: a target that is
 * the source through the key mapping, cell for cell, matches; a value, a timestamp, a missing cell
 * or an extra cell makes exactly the region that holds it differ, with its counts; cells moved to
 * another key differ even when their number agrees.
 */
class VerifyDigestStageTest extends StageTest {
  private static final KeyMapping MAPPING =
      KeyMapping.parse("text: ts:long + '_' + sender + '_' + msgid", "sender + '_' + msgid");

  /** Target regions: [, "h"), ["h", "p"), ["p", ). */
  private static final List<byte[]> REGIONS =
      List.of(new byte[0], Bytes.toBytes("h"), Bytes.toBytes("p"));

  private static final List<List<StageTest.CellSpec>> SOURCE =
      List.of(
          List.of(
              put("1000_alice_m1", "m:body", 1000, "hi"),
              put("1000_alice_m1", "m:body", 900, "draft")),
          List.of(put("2000_kim_m2", "m:body", 2000, "yo")),
          List.of(
              put("3000_zed_m3", "m:body", 3000, "hey"), put("3000_zed_m3", "m:to", 3000, "kim")));

  /** The source's rows under their new keys: what a correct copy holds. */
  private static List<List<StageTest.CellSpec>> copied(UnaryOperator<StageTest.CellSpec> change) {
    List<List<StageTest.CellSpec>> out = new ArrayList<>();
    for (List<StageTest.CellSpec> row : SOURCE) {
      List<StageTest.CellSpec> moved = new ArrayList<>();
      for (StageTest.CellSpec c : row) {
        StageTest.CellSpec m =
            new StageTest.CellSpec(
                newKey(c.row()), c.family(), c.qualifier(), c.ts(), c.type(), c.value());
        StageTest.CellSpec changed = change.apply(m);
        if (changed != null) {
          moved.add(changed);
        }
      }
      if (!moved.isEmpty()) {
        out.add(moved);
      }
    }
    return out;
  }

  /** The target key of a source key, as text (the layout's bytes are ASCII here). */
  private static String newKey(String sourceKey) {
    try {
      return Bytes.toString(MAPPING.map(Bytes.toBytes(sourceKey), (f, q) -> null));
    } catch (KeyReject e) {
      throw new AssertionError(sourceKey + " does not map", e);
    }
  }

  private VerifyResult compare(List<List<StageTest.CellSpec>> target) {
    return new VerifyJob(jsc(), MAPPING, REGIONS).compare(rows(2, SOURCE), rows(3, target));
  }

  @Test
  void anExactCopyMatches() {
    VerifyResult r = compare(copied(c -> c));
    assertThat(r.matches()).isTrue();
    assertThat(r.sourceCells()).isEqualTo(5);
    assertThat(r.targetCells()).isEqualTo(5);
    assertThat(r.differingRegions()).isZero();
  }

  @Test
  void aChangedValueTimestampMissingOrExtraCellMakesItsRegionDiffer() {
    // kim_m2 lives in region 1 ["h", "p").
    VerifyResult value =
        compare(
            copied(
                c ->
                    c.row().equals(newKey("2000_kim_m2"))
                        ? put(c.row(), "m:body", 2000, "YO")
                        : c));
    assertThat(value.matches()).isFalse();
    assertThat(value.differences())
        .singleElement()
        .satisfies(d -> assertThat(d.region()).isEqualTo(1))
        .satisfies(d -> assertThat(d.targetCells()).isEqualTo(d.sourceCells()));

    VerifyResult ts =
        compare(copied(c -> c.ts() == 900 ? put(c.row(), "m:body", 901, "draft") : c));
    assertThat(ts.differences()).singleElement().satisfies(d -> assertThat(d.region()).isZero());

    VerifyResult missing = compare(copied(c -> c.qualifier().equals("to") ? null : c));
    assertThat(missing.differences())
        .singleElement()
        .satisfies(d -> assertThat(d.region()).isEqualTo(2))
        .satisfies(d -> assertThat(d.targetCells()).isEqualTo(d.sourceCells() - 1));

    List<List<StageTest.CellSpec>> extra = copied(c -> c);
    extra.add(List.of(put(newKey("5000_hank_m9"), "m:body", 5000, "new")));
    VerifyResult extraCell = compare(extra);
    assertThat(extraCell.differences())
        .singleElement()
        .satisfies(d -> assertThat(d.region()).isEqualTo(1));
    assertThat(extraCell.targetCells()).isEqualTo(6);
  }

  @Test
  void cellsUnderAnotherKeyDifferEvenWhenTheCountsAgree() {
    // alice's cells land under amy's key, still in region 0: same count, other digest.
    VerifyResult r =
        compare(
            copied(
                c ->
                    c.row().equals(newKey("1000_alice_m1"))
                        ? new StageTest.CellSpec(
                            newKey("1000_amy_m1"),
                            c.family(),
                            c.qualifier(),
                            c.ts(),
                            c.type(),
                            c.value())
                        : c));
    assertThat(r.matches()).isFalse();
    assertThat(r.differences())
        .singleElement()
        .satisfies(d -> assertThat(d.region()).isZero())
        .satisfies(d -> assertThat(d.targetCells()).isEqualTo(d.sourceCells()));
  }

  @Test
  void sourceRowsTheMappingCannotPlaceAreCountedByReasonBesideTheMatchOfTheOthers() {
    List<List<StageTest.CellSpec>> source = new ArrayList<>(SOURCE);
    source.add(List.of(put("not-a-key", "m:body", 10, "?")));
    source.add(List.of(put("x_bob_m4", "m:body", 20, "?"), put("x_bob_m4", "m:to", 20, "?")));
    VerifyResult r =
        new VerifyJob(jsc(), MAPPING, REGIONS).compare(rows(2, source), rows(3, copied(c -> c)));
    assertThat(r.matches()).isTrue();
    assertThat(r.sourceCells()).isEqualTo(5);
    assertThat(r.unmapped().rows()).isEqualTo(2);
    assertThat(r.unmapped().byReason())
        .containsEntry("SOURCE_MISMATCH", 1L)
        .containsEntry("NOT_A_NUMBER", 1L);
    assertThat(r.unmapped().examples()).hasSize(2).anyMatch(e -> e.startsWith("x_bob_m4 "));
    assertThat(r.unmapped().acknowledged(null)).isFalse();
    assertThat(r.unmapped().acknowledged(2L)).isTrue();

    assertThat(compare(copied(c -> c)).unmapped()).isEqualTo(UnmappedRows.NONE);
  }

  @Test
  void twoSourceRowsUnderOneTargetKeyAreCountedWhenTheLayoutIsNotInjective() {
    // MAPPING drops ts: alice's m1 of another time lands on the same key, and merges there.
    List<List<StageTest.CellSpec>> source = new ArrayList<>(SOURCE);
    source.add(List.of(put("4000_alice_m1", "m:body", 4000, "again")));
    List<List<StageTest.CellSpec>> target = copied(c -> c);
    target.add(List.of(put(newKey("1000_alice_m1"), "m:body", 4000, "again")));
    VerifyResult r =
        new VerifyJob(jsc(), MAPPING, REGIONS).compare(rows(2, source), rows(3, target));
    assertThat(r.matches()).isTrue();
    assertThat(r.mergedKeys()).isEqualTo(1);
    assertThat(r.mergedExamples()).containsExactly("alice_m1");
    assertThat(r.mergedRefusal(false)).startsWith("1 target keys hold the cells of two or more");
    assertThat(r.mergedRefusal(true)).isNull();

    assertThat(compare(copied(c -> c)).mergedKeys()).isZero();
  }
}
