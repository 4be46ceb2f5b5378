package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.options.InvalidOptionException;
import io.rekey.verify.MigrationDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The row-level logic of a repair, and the pinned mapping, without a cluster. */
class RowFixTest {
  static final byte[] KEY = Bytes.toBytes("new-key");

  static Cell put(String row, String q, long ts, String value) {
    return new KeyValue(
        Bytes.toBytes(row), Bytes.toBytes("m"), Bytes.toBytes(q), ts, Bytes.toBytes(value));
  }

  static List<String> lines(List<Cell> cells) {
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      out.add(
          Bytes.toString(CellUtil.cloneRow(c))
              + "/"
              + Bytes.toString(CellUtil.cloneQualifier(c))
              + "@"
              + c.getTimestamp()
              + " "
              + c.getType()
              + (c.getType() == Cell.Type.Put ? "=" + Bytes.toString(CellUtil.cloneValue(c)) : ""));
    }
    out.sort(null);
    return out;
  }

  @Test
  void writesWhatIsMissingOrOtherAndDeletesExactlyWhatTheSourceDoesNotHave() {
    List<Cell> wanted =
        List.of(put("old", "a", 1, "same"), put("old", "b", 2, "new"), put("old", "c", 3, "gone"));
    List<Cell> shown =
        List.of(
            put("new-key", "a", 1, "same"),
            put("new-key", "b", 2, "old"),
            put("new-key", "d", 4, "x"));
    RowFix fix = RowFix.of(KEY, wanted, shown, List.of(), Set.of());
    assertThat(lines(fix.puts())).containsExactly("new-key/b@2 Put=new", "new-key/c@3 Put=gone");
    assertThat(lines(fix.deletes())).containsExactly("new-key/d@4 Delete");
    assertThat(fix.masked()).isEmpty();
    assertThat(RowFix.of(KEY, shown, shown, List.of(), Set.of()).none()).isTrue();
  }

  @Test
  void aCellAMarkerHidesIsMaskedUnlessTheFamilyHasTheNewVersionBehavior() {
    Cell marker =
        new KeyValue(KEY, Bytes.toBytes("m"), Bytes.toBytes("a"), 5, KeyValue.Type.DeleteColumn);
    List<Cell> wanted = List.of(put("old", "a", 3, "v"));
    RowFix old = RowFix.of(KEY, wanted, List.of(), List.of(marker), Set.of());
    assertThat(old.puts()).isEmpty();
    assertThat(lines(old.masked())).containsExactly("new-key/a@3 Put=v");
    RowFix nvb = RowFix.of(KEY, wanted, List.of(), List.of(marker), Set.of("m"));
    assertThat(lines(nvb.puts())).containsExactly("new-key/a@3 Put=v");
    assertThat(nvb.masked()).isEmpty();
  }

  @Test
  void anotherMappingThanTheCopysIsRefusedNamingTheOptionAndBothValues() {
    MigrationDefinition copy =
        new MigrationDefinition("ns:t", "text: a + b", "salt(16) + a", false);
    copy.requireSame(null, "ns:u", "rekey sync"); // nothing pinned: accepted
    copy.requireSame(copy.text(), "ns:u", "rekey sync");
    MigrationDefinition other =
        new MigrationDefinition("ns:t", "text: a + b", "salt(8) + a", false);
    assertThatThrownBy(() -> other.requireSame(copy.text(), "ns:u", "rekey sync"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessage(
            "--target-key is 'salt(8) + a' but differs from what ns:u was copied with (salt(16) +"
                + " a): rekey sync must use the same, or it writes or judges the table through"
                + " another. Use the copy's job file; to change the layout, start a new migration:"
                + " rekey into a new target");
    MigrationDefinition raw = new MigrationDefinition("ns:t", "text: a + b", "salt(16) + a", true);
    assertThatThrownBy(() -> raw.requireSame(copy.text(), "ns:u", "rekey repair"))
        .hasMessageStartingWith("--raw is 'true' but differs");
  }
}
