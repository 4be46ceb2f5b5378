package io.rekey.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.options.ReadMode;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.junit.jupiter.api.Test;

class GrantTest {
  private static final TableName T = TableName.valueOf("ns:t");

  @Test
  void aSnapshotReadNeedsAdminAndTheFilesAndALiveScanNeither() {
    List<Grant> snapshot = Grant.fullRead(T, ReadMode.SNAPSHOT);
    assertThat(snapshot).extracting(Grant::kind).contains(Grant.Kind.SNAPSHOT_FILES);
    assertThat(snapshot)
        .filteredOn(g -> g.anyOf().equals(List.of(Action.ADMIN)))
        .singleElement()
        .satisfies(g -> assertThat(g.otherwise()).isEqualTo("or run with --live-scan"));
    List<Grant> live = Grant.fullRead(T, ReadMode.LIVE_SCAN);
    assertThat(live).extracting(Grant::kind).doesNotContain(Grant.Kind.SNAPSHOT_FILES);
    assertThat(live).noneMatch(g -> g.anyOf().equals(List.of(Action.ADMIN)));
    assertThat(live).extracting(Grant::anyOf).contains(List.of(Action.READ));
  }

  @Test
  void aTableTheJobCreatesNeedsCreateOnItsNamespaceInstead() {
    assertThat(Grant.bulkLoad(T))
        .extracting(Grant::kind)
        .containsExactly(Grant.Kind.TABLE, Grant.Kind.NAMESPACE_IF_ABSENT);
    assertThat(Grant.state(T))
        .extracting(Grant::anyOf)
        .containsExactly(
            List.of(Action.ADMIN, Action.CREATE), List.of(Action.READ), List.of(Action.WRITE));
  }
}
