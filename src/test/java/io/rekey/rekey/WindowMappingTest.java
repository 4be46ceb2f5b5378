package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.read.CellVisibility;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The row-level logic of a sync window, without a cluster. */
class WindowMappingTest {
  static final String SOURCE = "text: ts:long + '_' + msgid";
  static final String BOUND = SOURCE + " ; sender = m:sender";
  static final long FROM = 1_000;
  static final long TO = 2_000;
  static final byte[] ROW = b("500_m1");

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  static KeyValue put(String qualifier, long ts, String value) {
    return new KeyValue(ROW, b("m"), b(qualifier), ts, KeyValue.Type.Put, b(value));
  }

  static KeyValue marker(String qualifier, long ts, KeyValue.Type type) {
    return new KeyValue(ROW, b("m"), qualifier == null ? null : b(qualifier), ts, type);
  }

  /** Cells in HBase's order, as a scan returns them. */
  static Cell[] row(Cell... cells) {
    Cell[] sorted = cells.clone();
    Arrays.sort(sorted, CellComparator.getInstance());
    return sorted;
  }

  static Cell[] within(Cell[] cells, long from, long to) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : cells) {
      if (c.getTimestamp() >= from && c.getTimestamp() < to) {
        out.add(c);
      }
    }
    return out.toArray(new Cell[0]);
  }

  static byte[] key(KeyMapping m, String sender) throws Exception {
    ColumnValues v = (f, q) -> f.equals("m") && q.equals("sender") ? b(sender) : null;
    return m.map(ROW, v);
  }

  /** The decision for a row held whole, its history read raw below the window's end. */
  private static WindowMapping.Decision decide(WindowMapping w, Cell[] history) {
    return w.decide(ROW, w.history(Arrays.asList(history).iterator()));
  }

  @Test
  void aKeyOfTheOldKeyAloneTakesEveryCellAndMarkerOfTheWindowUnchanged() throws Exception {
    KeyMapping m = KeyMapping.parse(SOURCE, "salt(4) + msgid + reverse_ts(ts)");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    assertThat(w.needsHistory()).isFalse();
    Cell[] window =
        row(
            put("body", 1_500, "hi"),
            marker(null, 1_600, KeyValue.Type.DeleteFamily),
            marker("body", 1_400, KeyValue.Type.DeleteColumn),
            marker("subject", 1_300, KeyValue.Type.Delete),
            marker(null, 1_200, KeyValue.Type.DeleteFamilyVersion));
    // The window's cells go to the key unchanged (SyncMapper writes them as they are).
    assertThat(window).hasSize(5);
    WindowMapping.Decision o = w.decide(ROW, null);
    assertThat(o).isInstanceOf(WindowMapping.Write.class);
    assertThat(((WindowMapping.Write) o).key()).isEqualTo(m.map(ROW, ColumnValues.NONE));
  }

  @Test
  void aRowWhoseOldKeyDoesNotParseIsRejectedWithTheLayoutsReason() throws Exception {
    WindowMapping w = new WindowMapping(KeyMapping.parse(SOURCE, "salt(4) + msgid"), FROM, TO);
    WindowMapping.Decision o = w.decide(b("nounderscore"), null);
    assertThat(o).isInstanceOf(WindowMapping.Refuse.class);
    assertThat(((WindowMapping.Refuse) o).reason()).isEqualTo("SOURCE_MISMATCH");
  }

  @Test
  void anUnchangedBoundColumnKeepsTheRowWhereItIs() throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    assertThat(w.needsHistory()).isTrue();
    Cell[] history = row(put("sender", 500, "ann"), put("body", 500, "a"), put("body", 1_500, "b"));
    WindowMapping.Decision o = decide(w, history);
    assertThat(o).isInstanceOf(WindowMapping.Write.class);
    assertThat(((WindowMapping.Write) o).key()).isEqualTo(key(m, "ann"));
  }

  @Test
  void aChangedBoundColumnMovesTheWholeRowAndRetiresEachOldCellVersionByVersion() throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    Cell[] history =
        row(
            put("sender", 500, "ann"),
            put("body", 400, "old body"),
            put("body", 500, "a"),
            marker("subject", 600, KeyValue.Type.DeleteColumn),
            put("sender", 1_500, "bob"));
    WindowMapping.Decision o = decide(w, history);
    assertThat(o).isInstanceOf(WindowMapping.Move.class);
    WindowMapping.Move moved = (WindowMapping.Move) o;
    assertThat(moved.oldKeys()).containsExactly(key(m, "ann"));
    assertThat(moved.newKey()).isEqualTo(key(m, "bob"));
    // Each Put stored is retired by a version delete of its column and time under the old key.
    Cell marker = WindowMapping.retiring(key(m, "ann"), history[1]);
    assertThat(CellUtil.cloneRow(marker)).isEqualTo(key(m, "ann"));
    assertThat(
            Bytes.toString(CellUtil.cloneQualifier(marker))
                + "@"
                + marker.getTimestamp()
                + " "
                + marker.getType())
        .isEqualTo(
            Bytes.toString(CellUtil.cloneQualifier(history[1]))
                + "@"
                + history[1].getTimestamp()
                + " Delete");
  }

  /**
   * A row first written inside the first window, which the copy (its snapshot taken within the
   * safety lag after the window's start) wrote under the key it had then, and which moved after the
   * copy: the key it had after each change in the window is retired, not only the one at the
   * window's start (which it did not have).
   */
  @Test
  void aRowWrittenJustBeforeTheCopyAndMovedAfterItIsRetiredUnderTheKeyTheCopyGaveIt()
      throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    Cell[] history =
        row(put("sender", 1_100, "ann"), put("body", 1_100, "a"), put("sender", 1_700, "bob"));
    WindowMapping.Decision o = decide(w, history);
    assertThat(o).isInstanceOf(WindowMapping.Move.class);
    WindowMapping.Move moved = (WindowMapping.Move) o;
    assertThat(moved.newKey()).isEqualTo(key(m, "bob"));
    assertThat(moved.oldKeys()).containsExactly(key(m, "ann"));
  }

  @Test
  void aRowDeletedInTheWindowTakesItsMarkersToTheKeyItHadBefore() throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    Cell[] history =
        row(
            put("sender", 500, "ann"),
            put("body", 500, "a"),
            marker(null, 1_500, KeyValue.Type.DeleteFamily));
    WindowMapping.Decision o = decide(w, history);
    assertThat(o).isInstanceOf(WindowMapping.Write.class);
    assertThat(((WindowMapping.Write) o).key()).isEqualTo(key(m, "ann"));
  }

  @Test
  void aRowNewInTheWindowGoesToItsKeyAndOneWrittenAndDeletedThereToo() throws Exception {
    // (A row whose bound column never changed in the window has no other key to retire.)
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    Cell[] fresh = row(put("sender", 1_200, "cat"), put("body", 1_200, "c"));
    assertThat(((WindowMapping.Write) decide(w, fresh)).key()).isEqualTo(key(m, "cat"));
    Cell[] gone =
        row(
            put("sender", 1_200, "dan"),
            put("body", 1_200, "d"),
            marker(null, 1_300, KeyValue.Type.DeleteFamily));
    assertThat(((WindowMapping.Write) decide(w, gone)).key()).isEqualTo(key(m, "dan"));
  }

  @Test
  void aRowWhoseOldBoundValueIsNoLongerStoredIsRejectedWithTheReasonAndWhereItNowMaps()
      throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    // VERSIONS 1, compacted: only the new sender is left, next to a body from before the window.
    Cell[] history = row(put("body", 500, "a"), put("sender", 1_500, "bob"));
    WindowMapping.Decision o = decide(w, history);
    assertThat(o).isInstanceOf(WindowMapping.Refuse.class);
    WindowMapping.Refuse r = (WindowMapping.Refuse) o;
    assertThat(r.reason()).isEqualTo(WindowMapping.OLD_KEY_UNKNOWN);
    assertThat(r.detail())
        .contains("m:sender has no value stored from before it", "'rekey repair'");
  }

  @Test
  void aRowThatLosesItsBoundColumnButKeepsCellsIsRejectedAndLeavesItsOldKey() throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + reverse_ts(ts) + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    Cell[] history =
        row(
            put("sender", 500, "ann"),
            put("body", 500, "a"),
            marker("sender", 1_500, KeyValue.Type.DeleteColumn));
    WindowMapping.Decision o = decide(w, history);
    assertThat(o).isInstanceOf(WindowMapping.Refuse.class);
    WindowMapping.Refuse r = (WindowMapping.Refuse) o;
    assertThat(r.reason()).isEqualTo("FIELD_MISSING");
    assertThat(r.detail()).contains("still holds cells", "--accept-unmapped");
    assertThat(r.oldKeys()).containsExactly(key(m, "ann"));
  }

  @Test
  void aRowWhoseBoundColumnTakesAValueTheLayoutRefusesIsRejectedAndLeavesItsOldKey()
      throws Exception {
    KeyMapping m = KeyMapping.parse(BOUND, "sender + '_' + msgid");
    WindowMapping w = new WindowMapping(m, FROM, TO);
    Cell[] history =
        row(put("sender", 500, "ann"), put("body", 500, "a"), put("sender", 1_500, "a_b"));
    WindowMapping.Refuse r = (WindowMapping.Refuse) decide(w, history);
    assertThat(r.reason()).isEqualTo("SEPARATOR_IN_VALUE");
    assertThat(r.oldKeys()).containsExactly(key(m, "ann"));
  }

  @Test
  void visibilityFollowsEachKindOfMarkerBelowTheTime() {
    byte[] m = b("m");
    byte[] q = b("sender");
    Cell[] versions =
        row(put("sender", 100, "a"), put("sender", 200, "b"), put("sender", 300, "c"));
    assertThat(CellVisibility.visibleValue(versions, m, q, 1_000, true)).isEqualTo(b("c"));
    assertThat(CellVisibility.visibleValue(versions, m, q, 300, true)).isEqualTo(b("b"));
    assertThat(CellVisibility.visibleValue(versions, m, q, 100, true)).isNull();
    Cell[] versionDeleted = row(append(versions, marker("sender", 300, KeyValue.Type.Delete)));
    assertThat(CellVisibility.visibleValue(versionDeleted, m, q, 1_000, true)).isEqualTo(b("b"));
    assertThat(CellVisibility.visibleValue(versionDeleted, m, q, 1_000, false)).isEqualTo(b("c"));
    Cell[] columnDeleted = row(append(versions, marker("sender", 250, KeyValue.Type.DeleteColumn)));
    assertThat(CellVisibility.visibleValue(columnDeleted, m, q, 1_000, true)).isEqualTo(b("c"));
    assertThat(CellVisibility.visibleValue(columnDeleted, m, q, 300, true)).isNull();
    Cell[] familyVersion =
        row(append(versions, marker(null, 300, KeyValue.Type.DeleteFamilyVersion)));
    assertThat(CellVisibility.visibleValue(familyVersion, m, q, 1_000, true)).isEqualTo(b("b"));
    Cell[] family = row(append(versions, marker(null, 350, KeyValue.Type.DeleteFamily)));
    assertThat(CellVisibility.visibleValue(family, m, q, 1_000, true)).isNull();
    // A marker at or after the time does not count yet.
    assertThat(CellVisibility.visibleValue(family, m, q, 350, true)).isEqualTo(b("c"));
  }

  private static Cell[] append(Cell[] cells, Cell more) {
    Cell[] out = Arrays.copyOf(cells, cells.length + 1);
    out[cells.length] = more;
    return out;
  }
}
