package io.rekey.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;

class DelegationTokensTest {
  /** What HDFS 3.4 said to a task of a job run from a ticket cache, past the token's life. */
  private static final String HDFS_EXPIRED =
      "org.apache.hadoop.ipc.RemoteException(org.apache.hadoop.security.token.SecretManager"
          + "$InvalidToken): Token  has expired, current time: 2026-12-04 07:47:43,840+0000"
          + " expected renewal time: 2026-12-04 07:40:55,929+0000\n"
          + "\tat org.apache.hadoop.ipc.Client.getRpcResponse(Client.java:1584)";

  @Test
  void theClustersWordsForAnExpiredTokenAreFoundWhereverTheySit() {
    assertThat(DelegationTokens.words(HDFS_EXPIRED))
        .contains(
            "Token has expired, current time: 2026-12-04 07:47:43,840+0000 expected renewal time:"
                + " 2026-12-04 07:40:55,929+0000");
    assertThat(
            DelegationTokens.expiredIn(
                "org.apache.hadoop.security.token.SecretManager$InvalidToken: Token has expired"))
        .isTrue();
    assertThat(
            DelegationTokens.expiredIn(
                "InvalidToken: token (HDFS_DELEGATION_TOKEN token 12 for alice) is expired"))
        .isTrue();
    assertThat(
            DelegationTokens.expiredIn(
                "token (token for alice: HDFS_DELEGATION_TOKEN owner=alice) can't be found in"
                    + " cache"))
        .isTrue();
  }

  @Test
  void otherFailuresAreNotTakenForAnExpiredToken() {
    assertThat(DelegationTokens.expiredIn("Kerberos ticket expired; run kinit")).isFalse();
    assertThat(DelegationTokens.expiredIn("the lease has expired for scanner 17")).isFalse();
    assertThat(DelegationTokens.expiredIn("Insufficient permissions (user=alice)")).isFalse();
    assertThat(DelegationTokens.expiredIn((String) null)).isFalse();
    assertThat(DelegationTokens.line(new RuntimeException("Connection refused"))).isEmpty();
  }

  @Test
  void aJobStoppedByAnExpiredTokenIsOneLineWithTheWayToRunWithAKeytab() {
    // A stage cancelled at the first such task: Spark's words, then ours, then the cluster's.
    SparkException stopped =
        new SparkException(
            "Job 0 cancelled because Token has expired, current time: 2026-12-04 07:47:43,840+0000"
                + " expected renewal time: 2026-12-04 07:40:55,929+0000");
    assertThat(DelegationTokens.line(new RuntimeException("rekey failed: ...", stopped)))
        .hasValueSatisfying(
            l -> assertThat(l).contains("(Token has expired, current time: 2026-12-04 07:47:43"));
    String said = DelegationTokens.words(stopped.getMessage()).orElseThrow();

    assertThat(DelegationTokens.line(said, "alice@EXAMPLE.COM", true))
        .startsWith("the job's delegation tokens expired while it ran (Token has expired")
        .contains("--principal alice@EXAMPLE.COM --keytab FILE (deploy/README.md, Security)")
        .doesNotContain("\n");
    // With a keytab Spark renewed them: the way out is not a keytab the job already has.
    assertThat(DelegationTokens.line(said, "alice@EXAMPLE.COM", false))
        .startsWith("a delegation token expired although Spark renews the job's tokens from its")
        .contains("(Token has expired", "a renewal failed", "report")
        .doesNotContain("--keytab FILE", "\n");
  }

  @Test
  void aWriterStopsOnceTheJobsTokensHaveExpiredAndNotBefore() throws Exception {
    UserGroupInformation user = UserGroupInformation.createRemoteUser("writer");
    DelegationTokens.Watch watch = new DelegationTokens.Watch();
    user.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              watch.check(); // no tokens: nothing to expire
              user.addToken(
                  new Text("hbase-cluster"),
                  token(
                      new AuthenticationTokenIdentifier(
                          "writer", 1, 0L, Instant.now().plusSeconds(600).toEpochMilli()),
                      "HBASE_AUTH_TOKEN"));
              watch.check();
              user.addToken(
                  new Text("hbase-cluster"),
                  token(
                      new AuthenticationTokenIdentifier(
                          "writer", 1, 0L, Instant.now().minusSeconds(1).toEpochMilli()),
                      "HBASE_AUTH_TOKEN"));
              // A fresh watch reads the tokens at once; one that just read them, within seconds.
              assertThatThrownBy(new DelegationTokens.Watch()::check)
                  .hasMessageStartingWith("the job's delegation token has expired at ")
                  .satisfies(e -> assertThat(DelegationTokens.expiredIn(e)).isTrue());
              return null;
            });
  }

  @Test
  void theFailureOfAConnectionWhoseTokensExpiredSaysSoInTheWordsTasksAreStoppedFor() {
    assertThat(DelegationTokens.expiredIn(DelegationTokens.expiredError().getMessage())).isTrue();
  }

  @Test
  void theFirstExpiryIsTheEarliestOfTheHBaseAndHdfsTokens() throws Exception {
    Instant hbaseEnds = Instant.parse("2026-12-04T08:00:00Z");
    Instant hdfsEnds = Instant.parse("2026-12-04T07:30:00Z");
    Credentials credentials = new Credentials();
    AuthenticationTokenIdentifier hbase =
        new AuthenticationTokenIdentifier("alice", 1, 0L, hbaseEnds.toEpochMilli());
    credentials.addToken(new Text("hbase-cluster"), token(hbase, "HBASE_AUTH_TOKEN"));
    assertThat(DelegationTokens.firstExpiry(credentials)).contains(hbaseEnds);

    DelegationTokenIdentifier hdfs =
        new DelegationTokenIdentifier(new Text("alice"), new Text("yarn"), new Text("alice"));
    hdfs.setMaxDate(hdfsEnds.toEpochMilli());
    credentials.addToken(new Text("127.0.0.1:8020"), token(hdfs, "HDFS_DELEGATION_TOKEN"));
    assertThat(DelegationTokens.firstExpiry(credentials)).contains(hdfsEnds);

    assertThat(DelegationTokens.firstExpiry(new Credentials())).isEmpty();
  }

  @Test
  void aTokenObtainedAnewForTheSameServiceSupersedesTheOldOne() {
    Instant old = Instant.parse("2026-12-04T07:00:00Z");
    Instant renewed = Instant.parse("2026-12-04T09:00:00Z");
    Credentials credentials = new Credentials();
    credentials.addToken(
        new Text("first"),
        token(
            new AuthenticationTokenIdentifier("alice", 1, 0L, old.toEpochMilli()),
            "HBASE_AUTH_TOKEN"));
    credentials.addToken(
        new Text("second"),
        token(
            new AuthenticationTokenIdentifier("alice", 2, 0L, renewed.toEpochMilli()),
            "HBASE_AUTH_TOKEN"));
    assertThat(DelegationTokens.firstExpiry(credentials)).contains(renewed);
  }

  private static Token<TokenIdentifier> token(TokenIdentifier id, String kind) {
    return new Token<>(id.getBytes(), new byte[0], new Text(kind), new Text("service"));
  }
}
