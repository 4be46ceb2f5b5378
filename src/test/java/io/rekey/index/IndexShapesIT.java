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
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Index shapes besides the demo's, kept right by {@code index update}, and an index's definition
 * pinned by its build: each on a real mini cluster, changed for real between runs.
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
   * and the update reads it instead of rejecting the row.
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
    // The new entry is there; the old subject's entry stays until a scrutiny --repair (updates
    // only add, as the README says), and scrutiny names exactly it.
    IndexScrutinyResult s = scrutiny(def, false);
    assertThat(s.missing()).as(s.toString()).isZero();
    assertThat(s.invalid()).as(s.toString()).isEqualTo(1);
    assertThat(s.samples().get("invalid")).singleElement().asString().contains("'subject 1'");
    assertThat(scrutiny(def, true).invalid()).isEqualTo(1);
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
