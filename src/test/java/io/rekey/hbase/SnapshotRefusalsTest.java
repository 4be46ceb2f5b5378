package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.hbase.snapshot.SnapshotCreationException;
import org.junit.jupiter.api.Test;

/** Which of HBase's snapshot refusals {@link TableAdmin#snapshot} waits out. */
class SnapshotRefusalsTest {
  @Test
  void anotherSnapshotOfTheTableIsWaitedOutAndNothingElse() {
    // HBase 2.5's words, as a job saw them when two jobs snapshotted it:messages at once.
    IOException busy =
        new IOException(
            new SnapshotCreationException(
                "Rejected taking { ss=audit-it_messages-2 table=it:messages type=FLUSH ttl=0 }"
                    + " because we are already running another snapshot on the same table { ss="
                    + "audit-it_messages-1 table=it:messages type=FLUSH ttl=0 }"));
    assertThat(TableAdmin.isOtherSnapshotRunning(busy)).isTrue();
    assertThat(TableAdmin.isTableLockTimeout(busy)).isFalse();
    IOException exists =
        new SnapshotCreationException("Snapshot 'x' already stored on the filesystem.");
    assertThat(TableAdmin.isOtherSnapshotRunning(exists)).isFalse();
  }
}
