package io.rekey.stream.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.keys.KeyMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WALEdit;
import org.junit.jupiter.api.Test;

/**
 * A WAL edit's cells become the target's: each under its row's new key with its own timestamp, type
 * and value, in the edit's order, a target row's cells in one Put and its markers in one Delete;
 * markers of the WAL itself are skipped and rows the layout refuses are counted with their reason.
 */
class EditMapperTest {
  private static final KeyMapping MAPPING =
      KeyMapping.parse("text: ts:long + '_' + user", "user + '#' + ts:long");
  private static final long TS = 1_700_000_000_000L;

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static KeyValue cell(String row, String q, long ts, KeyValue.Type type) {
    return new KeyValue(
        b(row), b("m"), q == null ? null : b(q), ts, type, b(type == KeyValue.Type.Put ? "v" : ""));
  }

  @Test
  void everyKindOfCellKeepsItsTimestampTypeAndValueUnderTheNewKey() throws Exception {
    List<Cell> edit =
        List.of(
            cell("5_alice", "body", TS, KeyValue.Type.Put),
            cell("5_alice", "body", TS - 1, KeyValue.Type.Delete),
            cell("5_alice", "x", TS, KeyValue.Type.DeleteColumn),
            cell("5_alice", null, TS, KeyValue.Type.DeleteFamily),
            cell("5_alice", null, TS - 2, KeyValue.Type.DeleteFamilyVersion),
            cell("6_bob", "body", 42, KeyValue.Type.Put));
    EditMapper.Mapped mapped = new EditMapper(MAPPING).map(edit, TS);

    assertThat(mapped.rejected()).isEmpty();
    // Only the Put stamped long before the edit was logged is read back after writing.
    assertThat(mapped.stampedBefore())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.sourceRow()).isEqualTo(b("6_bob"));
              assertThat(s.timestamp()).isEqualTo(42);
            });
    byte[] alice5 = MAPPING.map(b("5_alice"), (f, q) -> null);
    byte[] bob6 = MAPPING.map(b("6_bob"), (f, q) -> null);
    // Per target row in the edit's order, a Put of its cells and a Delete of its markers.
    assertThat(mapped.mutations())
        .extracting(m -> Bytes.toStringBinary(m.getRow()) + " " + m.getClass().getSimpleName())
        .containsExactly(
            Bytes.toStringBinary(alice5) + " Put",
            Bytes.toStringBinary(alice5) + " Delete",
            Bytes.toStringBinary(bob6) + " Put");
    List<Cell> alice = new ArrayList<>(cells(mapped.mutations().get(0)));
    alice.addAll(cells(mapped.mutations().get(1)));
    assertThat(alice).hasSize(5);
    for (int i = 0; i < 5; i++) {
      Cell out = alice.get(i);
      Cell in = edit.get(i);
      assertThat(org.apache.hadoop.hbase.CellUtil.cloneRow(out)).isEqualTo(alice5);
      assertThat(out.getTimestamp()).isEqualTo(in.getTimestamp());
      assertThat(out.getTypeByte()).isEqualTo(in.getTypeByte());
      assertThat(org.apache.hadoop.hbase.CellUtil.matchingColumn(out, in)).isTrue();
      assertThat(org.apache.hadoop.hbase.CellUtil.matchingValue(out, in)).isTrue();
    }
  }

  @Test
  void aClientsMultiRowPutBecomesOnePutPerTargetRowWhateverItsSize() throws Exception {
    List<Cell> edit = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      edit.add(cell(i + "_u" + i, "body", TS, KeyValue.Type.Put));
      edit.add(cell(i + "_u" + i, "sender", TS, KeyValue.Type.Put));
    }
    EditMapper.Mapped mapped = new EditMapper(MAPPING).map(edit, TS);
    assertThat(mapped.mutations())
        .hasSize(20_000)
        .allSatisfy(m -> assertThat(m).isInstanceOf(Put.class));
    assertThat(cells(mapped.mutations().get(19_999)))
        .extracting(c -> Bytes.toString(org.apache.hadoop.hbase.CellUtil.cloneQualifier(c)))
        .containsExactly("body", "sender");
  }

  private static List<Cell> cells(Mutation m) {
    return m.getFamilyCellMap().values().stream().flatMap(List::stream).toList();
  }

  @Test
  void walMarkersAreSkippedAndRowsTheLayoutRefusesAreCountedWithTheirReason() throws Exception {
    List<Cell> edit =
        List.of(
            new KeyValue(b("5_alice"), WALEdit.METAFAMILY, b("HBASE::FLUSH"), TS, b("x")),
            cell("not-a-key", "body", TS, KeyValue.Type.Put),
            cell("not-a-key", "x", TS, KeyValue.Type.Put),
            cell("7_carol", "body", TS, KeyValue.Type.Put));
    EditMapper.Mapped mapped = new EditMapper(MAPPING).map(edit, TS);
    assertThat(mapped.mutations()).hasSize(1);
    assertThat(mapped.rejected()).singleElement().asString().startsWith("not-a-key\t");
    assertThat(mapped.rejectedCells()).isEqualTo(2);
  }

  @Test
  void aBulkLoadMarkerIsHandedOnForItsFilesToBeCarried() throws Exception {
    List<Cell> edit =
        List.of(new KeyValue(b("5_alice"), WALEdit.METAFAMILY, WALEdit.BULK_LOAD, TS, b("x")));
    EditMapper.Mapped mapped = new EditMapper(MAPPING).map(edit, TS);
    assertThat(mapped.mutations()).isEmpty();
    assertThat(mapped.rejected()).isEmpty();
    assertThat(mapped.bulkLoads()).containsExactlyElementsOf(edit);
  }

  @Test
  void aKeyBoundToAColumnIsRefusedWhereTheNewKeyDoesNotGiveTheRowBack() {
    assertThatThrownBy(
            () ->
                new EditMapper(
                    KeyMapping.parse(
                        "text: ts:long + '_' + user ; s = m:sender", "s + '#' + ts:long")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not keep user");
  }

  /**
   * Where the key is bound to a column, each source row goes where its placement says: what must
   * reach the target first (a moved row rewritten, its old key retired) precedes the row's cells,
   * once, and a deleted row's markers go under every key it is held under.
   */
  @Test
  void aBoundRowsCellsFollowItsPlacementAfterWhatMustComeFirst() throws Exception {
    KeyMapping bound =
        KeyMapping.parse(
            "text: ts:long + '_' + user ; s = m:sender", "s + '#' + user + '#' + ts:long");
    EditMapper mapper = new EditMapper(bound);
    assertThat(mapper.bound()).isSameAs(bound);
    Put rewritten = new Put(b("new#alice#5"));
    Mutation retired = new org.apache.hadoop.hbase.client.Delete(b("old#alice#5"));
    Map<String, BoundRows.Placement> placements =
        Map.of(
            "5_alice",
                new BoundRows.Placement(
                    List.of(b("new#alice#5")), List.of(rewritten, retired), null),
            "6_bob", new BoundRows.Placement(List.of(b("a#bob#6"), b("b#bob#6")), List.of(), null),
            "7_carol", new BoundRows.Placement(List.of(), List.of(retired), "FIELD_MISSING: gone"));
    List<Cell> edit =
        List.of(
            cell("5_alice", "body", TS, KeyValue.Type.Put),
            cell("6_bob", null, TS, KeyValue.Type.DeleteFamily),
            cell("7_carol", "body", TS, KeyValue.Type.Put));
    EditMapper.Mapped mapped = mapper.map(edit, TS, row -> placements.get(Bytes.toString(row)));

    assertThat(mapped.mutations())
        .extracting(m -> Bytes.toString(m.getRow()) + " " + m.getClass().getSimpleName())
        .containsExactly(
            "new#alice#5 Put", // the row rewritten,
            "old#alice#5 Delete", // its old key retired,
            "new#alice#5 Put", // then the edit's cell
            "a#bob#6 Delete",
            "b#bob#6 Delete",
            "old#alice#5 Delete");
    assertThat(mapped.mutations().get(0)).isSameAs(rewritten);
    assertThat(mapped.rejected()).containsExactly("7_carol\tFIELD_MISSING: gone");
    assertThat(mapped.rejectedCells()).isEqualTo(1);
  }

  @Test
  void aReverseStreamPutsTheMigratedTablesCellsBackUnderTheirOldKeys() throws Exception {
    StreamSettings forward =
        new StreamSettings(
            TableName.valueOf("old"),
            TableName.valueOf("new"),
            "text: ts:long + '_' + user",
            "user + '#' + ts:long",
            Map.of());
    StreamSettings reverse = forward.reversed(Map.of("hbase.zookeeper.quorum", "zk:2181"));
    // What the peer carries to every region server says the same.
    assertThat(StreamSettings.fromPeerConfiguration(reverse.toPeerConfiguration()))
        .isEqualTo(reverse);
    assertThat(reverse.source().getNameAsString()).isEqualTo("new");
    assertThat(reverse.migratedTable().getNameAsString()).isEqualTo("new");
    assertThat(reverse.reversed(Map.of())).isEqualTo(forward);

    byte[] newKey = MAPPING.map(b("5_alice"), (f, q) -> null);
    EditMapper.Mapped back =
        EditMapper.of(reverse)
            .map(
                List.of(
                    new KeyValue(newKey, b("m"), b("body"), 42, KeyValue.Type.Put, b("v")),
                    cell("a key of another shape", "body", TS, KeyValue.Type.Put)),
                TS);
    assertThat(back.mutations())
        .singleElement()
        .satisfies(m -> assertThat(m.getRow()).isEqualTo(b("5_alice")));
    assertThat(only(back.mutations().get(0)).getTimestamp()).isEqualTo(42);
    assertThat(back.rejected()).singleElement().asString().startsWith("a key of another shape\t");

    StreamSettings lossy =
        new StreamSettings(
                TableName.valueOf("old"),
                TableName.valueOf("new"),
                "text: ts:long + '_' + user",
                "hash(user, bytes=4) + ts:long",
                Map.of())
            .reversed(Map.of());
    assertThatThrownBy(() -> EditMapper.of(lossy))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not keep user");
  }

  private static Cell only(Mutation m) {
    List<Cell> cells = m.getFamilyCellMap().get(b("m"));
    assertThat(cells).hasSize(1);
    return cells.get(0);
  }
}
