package io.rekey.index;

import static io.rekey.index.IndexIT.b;
import static io.rekey.index.IndexIT.bySender;
import static io.rekey.index.IndexIT.definition;
import static io.rekey.index.IndexIT.lookup;
import static io.rekey.index.IndexIT.messages;
import static io.rekey.index.IndexIT.runBuild;
import static io.rekey.index.IndexIT.runUpdate;
import static io.rekey.index.IndexIT.scrutiny;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The three ways index updates went wrong, each its own case: an index keyed by a bound column, a
 * key field's index, and an update with another definition than the build's. On a real mini
 * cluster, changed for real between runs; {@link IndexUpdatesIT} takes every shape through random
 * changes.
 */
@ExtendWith(MiniHBase.class)
class IndexShapesIT {
  @BeforeAll
  static void connect() {
    IndexIT.connect();
  }

  @AfterAll
  static void close() throws Exception {
    IndexIT.close();
  }

  /** Waits until now is past {@code ts}, so a window ending now (no lag) holds it. */
  private static void after(long ts) throws InterruptedException {
    while (System.currentTimeMillis() <= ts + 1) {
      Thread.sleep(5);
    }
  }

  /**
   * The index key starts with a column the source key binds (the sender), the value is another
   * column (the subject): when only the subject changes, the update's window row lacks the sender,
   * and the update reads it instead of rejecting the row; the old subject's entry goes with it.
   */
  @Test
  void anIndexKeyedByABoundColumnFollowsAChangeOfAnotherColumnOfTheRow() throws Exception {
    TableName source = messages("ixs_bound", 30);
    String index = source.getNameAsString() + "_by_subject";
    OptionValues def =
        OptionValues.empty()
            .with("source", source.getNameAsString())
            .with("source-key", "text: 'msg' + n ; sender = m:sender")
            .with("column", "m:subject")
            .with("index-key", "sender + value + reverse_ts(ts) + key")
            .with("index-table", index)
            .with("safety-lag", "0")
            .with("allow-short-lag", "true");
    OptionValues run = def.with("max-rejects", "5");
    IndexRunResult built = runBuild(run);
    // Every 25th message has no sender: no key for it, rejected with the reason.
    assertThat(built.counts().rowsRejected()).isEqualTo(1);
    long now = System.currentTimeMillis();
    TestTables.put(
        source, List.of(new Put(b("msg00001")).addColumn(b("m"), b("subject"), now, b("re: 1"))));
    after(now);
    IndexRunResult updated = runUpdate(run);
    assertThat(updated.counts().rowsRejected()).isZero();
    assertThat(updated.counts().rowsIndexed()).isEqualTo(1);
    assertThat(updated.counts().entriesRetired()).isEqualTo(1);
    // The old subject's entry is gone with the update itself: no repair needed.
    IndexScrutinyResult s = scrutiny(def, false);
    assertThat(s.clean()).as(s.toString()).isTrue();
    assertThat(lookup(def).lookup("subject 1", null, null, 10, false).entries()).isZero();
    assertThat(IndexIT.hitKeys(lookup(def).lookup("re: 1", null, null, 10, false)))
        .containsExactly("msg00001");
  }

  /**
   * An index on a key field: a change of another column of a row leaves its one entry as it is (a
   * key field's entry carries no time that could change), so a lookup finds the row once.
   */
  @Test
  void aKeyFieldsEntryStaysOneWhenOtherColumnsOfTheRowChange() throws Exception {
    TableName source = MiniHBase.uniqueTable("ixs_field");
    TestTables.create(source, ColumnFamilyDescriptorBuilder.of("m"));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      puts.add(
          new Put(b("u" + i % 4 + "_" + i))
              .addColumn(b("m"), b("sender"), IndexIT.T0 + i, b("s"))
              .addColumn(b("m"), b("read"), IndexIT.T0 + i, b("no")));
    }
    TestTables.put(source, puts);
    OptionValues def = IndexIT.byUserField(source);
    runBuild(def);
    long now = System.currentTimeMillis();
    TestTables.put(source, List.of(new Put(b("u1_5")).addColumn(b("m"), b("read"), now, b("yes"))));
    after(now);
    runUpdate(def);
    IndexLookup.Result u1 = lookup(def).lookup("u1", null, null, 100, false);
    assertThat(IndexIT.hitKeys(u1)).containsExactly("u1_1", "u1_13", "u1_17", "u1_5", "u1_9");
    assertThat(scrutiny(def, false).clean()).isTrue();
  }

  /**
   * An index built with one definition refuses an update, a scrutiny or a lookup with another (an
   * index key, a covered column), in one line naming the option and both values.
   */
  @Test
  void anotherDefinitionThanTheBuildsIsRefusedInOneLine() throws Exception {
    TableName source = messages("ixs_pin", 20);
    String index = bySender(source);
    OptionValues def = definition(source, index);
    runBuild(def);
    OptionValues otherKey = OptionValues.empty().with("index-key", "value + key").over(def);
    assertThatThrownBy(() -> runUpdate(otherKey))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageStartingWith("--index-key is 'value + key' but differs from what " + index)
        .hasMessageContaining("was built with (value + reverse_ts(ts) + key)")
        .hasMessageContaining("build a new index table");
    OptionValues moreCovered = def.with("covered", "m:body");
    assertThatThrownBy(() -> runUpdate(moreCovered))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageStartingWith("--covered is 'm:subject, m:body' but differs");
    assertThatThrownBy(() -> scrutiny(otherKey, false))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("index scrutiny must use the same");
    assertThatThrownBy(() -> lookup(otherKey).lookup("alice", null, null, 5, false))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("index lookup must use the same");
    // The build's own definition goes on working.
    assertThat(runUpdate(def).counts().rowsRejected()).isZero();
    assertThat(lookup(def).lookup("alice", null, null, 5, false).entries()).isPositive();
  }
}
