package io.rekey.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.junit.jupiter.api.Test;

class AccessDeniedTest {
  @Test
  void aTableRefusalNamesTheUserThePermissionAndTheGrant() {
    AccessDeniedException denied =
        new AccessDeniedException(
            "Insufficient permissions (user=alice@EXAMPLE.COM, scope=demo:m,"
                + " params=[table=demo:m,],action=CREATE)");
    assertThat(
            AccessDenied.line(new IOException("cannot describe table demo:m", denied))
                .orElseThrow())
        .contains(
            "HBase refused alice@EXAMPLE.COM CREATE permission on table demo:m. An HBase admin"
                + " can grant it in the hbase shell: grant 'alice', 'C', 'demo:m'");
  }

  @Test
  void aNamespaceRefusalGrantsOnTheNamespaceEvenBehindTheClientsRetries() {
    Exception e =
        new RetriesExhaustedException(
            "Failed after attempts=1",
            new IOException(
                new AccessDeniedException(
                    "org.apache.hadoop.hbase.security.AccessDeniedException: Insufficient"
                        + " permissions (user=alice@EXAMPLE.COM, scope=demo,"
                        + " params=[namespace=demo,],action=ADMIN)")));
    assertThat(AccessDenied.line(e).orElseThrow())
        .startsWith("HBase refused alice@EXAMPLE.COM ADMIN permission on namespace demo.")
        .contains("grant 'alice', 'A', '@demo'");
  }

  @Test
  void aSparkTaskFailureKeepsOnlyTheTextAndThatIsEnough() {
    Exception e =
        new IllegalStateException(
            "Job aborted due to stage failure: Task 0 failed 4 times, most recent failure: ..."
                + " org.apache.hadoop.hbase.security.AccessDeniedException: Insufficient"
                + " permissions (user=alice@EXAMPLE.COM, scope=ns:t, params=[table=ns:t,"
                + "family=d],action=WRITE)");
    assertThat(AccessDenied.line(e).orElseThrow()).contains("grant 'alice', 'W', 'ns:t'");
  }

  @Test
  void otherFailuresAreLeftAlone() {
    assertThat(AccessDenied.line(new IOException("connection refused"))).isEmpty();
  }
}
