package io.rekey.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.hbase.HBaseConnections;
import io.rekey.testing.MiniHBase;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The driver's connection as Spark renews the job's HBase token, on the mini cluster. The cluster
 * has no Kerberos, so it ignores the tokens; what is checked is which connection underneath serves
 * a call. Each test runs as a user of its own, whose tokens no other test sees.
 */
@ExtendWith(MiniHBase.class)
class TokenFollowingConnectionIT {
  private static final byte[] FAMILY = Bytes.toBytes("m");

  @Test
  void aRenewedTokenGetsANewConnectionAndTheOldOneServesUntilTheEnd() throws Exception {
    TableName t = MiniHBase.uniqueTable("renewed");
    MiniHBase.util().createTable(t, "m");
    UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
    alice.addToken(token(1, Instant.now().plusSeconds(120)));
    as(
        alice,
        () -> {
          Connection connection = HBaseConnections.open(MiniHBase.settings());
          Admin before = connection.getAdmin();
          Table table = connection.getTable(t);
          assertThat(connection.getAdmin().getConnection()).isSameAs(before.getConnection());

          // Spark obtained a new token for the same cluster: it replaces the old one.
          alice.addToken(token(2, Instant.now().plusSeconds(240)));
          Admin after = connection.getAdmin();
          assertThat(after.getConnection()).isNotSameAs(before.getConnection());
          // What came from the old connection still works.
          table.put(new Put(Bytes.toBytes("r")).addColumn(FAMILY, FAMILY, Bytes.toBytes("v")));
          assertThat(connection.getTable(t).get(new Get(Bytes.toBytes("r"))).isEmpty()).isFalse();
          assertThat(before.tableExists(t)).isTrue();

          connection.close();
          assertThat(connection.isClosed()).isTrue();
          assertThat(before.getConnection().isClosed()).isTrue();
          assertThat(after.getConnection().isClosed()).isTrue();
          return null;
        });
  }

  @Test
  void aTokenPastItsLifeThatNothingRenewedFailsTheNextCallAtOnceInWordsTheJobKnows()
      throws Exception {
    UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
    bob.addToken(token(1, Instant.now().plusMillis(1500)));
    as(
        bob,
        () -> {
          try (Connection connection = HBaseConnections.open(MiniHBase.settings())) {
            assertThat(connection.getAdmin().tableExists(TableName.META_TABLE_NAME)).isTrue();
            Thread.sleep(2000);
            long started = System.nanoTime();
            assertThatThrownBy(connection::getAdmin)
                .satisfies(e -> assertThat(DelegationTokens.expiredIn(e)).isTrue())
                .hasMessageContaining("and nothing renewed it");
            assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(1000);
          }
          return null;
        });
  }

  /** An HBase token for the mini cluster's id, {@code key} the key it was signed with. */
  private static Token<AuthenticationTokenIdentifier> token(int key, Instant expires)
      throws Exception {
    AuthenticationTokenIdentifier id =
        new AuthenticationTokenIdentifier("alice", key, 0L, expires.toEpochMilli());
    String clusterId = MiniHBase.util().getMiniHBaseCluster().getMaster().getClusterId();
    return new Token<>(
        id.getBytes(), new byte[] {1}, new Text("HBASE_AUTH_TOKEN"), new Text(clusterId));
  }

  private static void as(UserGroupInformation user, PrivilegedExceptionAction<Void> action)
      throws Exception {
    user.doAs(action);
  }
}
