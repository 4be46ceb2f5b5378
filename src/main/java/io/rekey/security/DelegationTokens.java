package io.rekey.security;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenIdentifier;

/**
 * The delegation tokens a job holds on a Kerberized cluster: when they expire, and the one line for
 * a job stopped by an expired one. Spark renews a job's HBase and HDFS tokens only when it was
 * started with a keytab ({@code spark-submit --principal/--keytab}); a job started from a ticket
 * cache keeps the tokens it got at its start, and one that runs past their lifetime fails the next
 * time a task or the driver connects with them. HBase's client retries such a connection for
 * minutes, so the clean-up of a job stopped that way asks {@link #expired()} first.
 */
public final class DelegationTokens {
  /** HDFS's, HBase's and YARN's words for a token past its life, or one they no longer know. */
  private static final Pattern EXPIRED =
      Pattern.compile(
          "(?i)(?<![.\\w$])token\\b[^\\n]{0,300}?(?:has expired|is expired|can't be found in cache)"
              + "[^\\n]{0,160}");

  private static final String HBASE_TOKEN = "HBASE_AUTH_TOKEN";

  /** The kinds of token a job's connections use: HBase's and HDFS's. */
  private static final java.util.Set<String> JOBS_TOKENS =
      java.util.Set.of(HBASE_TOKEN, "HDFS_DELEGATION_TOKEN");

  /** Set once the job is known to run without a keytab: Spark renews none of its tokens. */
  private static volatile boolean unrenewed;

  private DelegationTokens() {}

  /** Whether {@code text} says a delegation token expired: a task's failure, an exception. */
  public static boolean expiredIn(String text) {
    return text != null && EXPIRED.matcher(text).find();
  }

  /** Whether {@code t}, or one of its causes, says a delegation token expired. */
  public static boolean expiredIn(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (expiredIn(c.getMessage())) {
        return true;
      }
    }
    return false;
  }

  /** The cluster's words for the expired token in {@code text}, its first line; else empty. */
  public static Optional<String> words(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher m = EXPIRED.matcher(text);
    return m.find() ? Optional.of(m.group().replaceAll("\\s+", " ").strip()) : Optional.empty();
  }

  /**
   * The line for {@code e}, when an expired delegation token stopped it (wherever among its causes,
   * or in the text Spark keeps of a failed task); else empty.
   */
  public static Optional<String> line(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      Optional<String> said = words(t.getMessage());
      if (said.isPresent()) {
        return Optional.of(line(said.get(), user(), unrenewed));
      }
    }
    return Optional.empty();
  }

  static String line(String said, String user, boolean unrenewed) {
    String why = " (" + said.replaceAll("[.:]+$", "") + ")";
    if (unrenewed) {
      return "the job's delegation tokens expired while it ran"
          + why
          + ". Spark renews a job's HBase and HDFS tokens only when it has the user's keytab:"
          + " rerun with spark-submit --principal "
          + user
          + " --keytab FILE (deploy/README.md, Security)";
    }
    return "a delegation token expired although Spark renews the job's tokens from its keytab"
        + why
        + ": either a renewal failed (the driver's log says why) or a connection kept the token it"
        + " was opened with, a fault of hbase-rekey to report with the log file. A rerun takes the"
        + " run over";
  }

  /**
   * Says that nothing renews this job's tokens (it has no keytab), so that a job an expired token
   * stopped is told to run with one.
   */
  public static void notRenewed() {
    unrenewed = true;
  }

  /** What a connection of a job whose tokens expired, and are not renewed, fails with at once. */
  public static IOException expiredError() {
    return new IOException(
        "the job's delegation token has expired at "
            + firstExpiry().map(Instant::toString).orElse("an unknown time")
            + " and nothing renewed it");
  }

  /**
   * When the first of the current user's HBase and HDFS delegation tokens expires; empty when it
   * holds none (a cluster without Kerberos, or a JVM that logs in itself).
   */
  public static Optional<Instant> firstExpiry() {
    try {
      return firstExpiry(UserGroupInformation.getCurrentUser().getCredentials());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static Optional<Instant> firstExpiry(Credentials credentials) {
    // Per service the newest token counts: one Spark obtained anew supersedes the old one.
    Map<String, Instant> lastPerService = new HashMap<>();
    for (Token<? extends TokenIdentifier> token : credentials.getAllTokens()) {
      if (JOBS_TOKENS.contains(token.getKind().toString())) {
        expiry(token)
            .ifPresent(
                at ->
                    lastPerService.merge(
                        token.getKind() + " " + token.getService(),
                        at,
                        (a, b) -> a.isAfter(b) ? a : b));
      }
    }
    return lastPerService.values().stream().min(Instant::compareTo);
  }

  /**
   * Which HBase token the current user holds now, as a short stamp that changes when Spark renews
   * it; empty when it holds none.
   */
  public static String hbaseTokenStamp() {
    try {
      int stamp = 0;
      for (Token<? extends TokenIdentifier> token :
          UserGroupInformation.getCurrentUser().getCredentials().getAllTokens()) {
        if (token.getKind().toString().equals(HBASE_TOKEN)) {
          stamp = 31 * stamp + java.util.Arrays.hashCode(token.getIdentifier());
        }
      }
      return stamp == 0 ? "" : Integer.toHexString(stamp);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Checks, cheaply enough for every write, that the job's tokens have not expired: it reads them
   * again once the end it knows of has passed (a renewal moves it), and at least every few seconds
   * (tokens arrive after a JVM starts). A writer that checks stops at once when nothing renews
   * them, where HBase's client would look up each buffered row's region for a minute or more.
   */
  public static final class Watch {
    private static final long REREAD_MS = 10_000;
    private long next;

    /** Throws {@link #expiredError()} once the job's tokens have expired. */
    public void check() throws IOException {
      long now = System.currentTimeMillis();
      if (now < next) {
        return;
      }
      long end = firstExpiry().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
      if (now >= end) {
        throw expiredError();
      }
      next = Math.min(end, now + REREAD_MS);
    }
  }

  /** Whether one of the current user's delegation tokens is past its life. */
  public static boolean expired() {
    return firstExpiry().map(at -> at.isBefore(Instant.now())).orElse(false);
  }

  /**
   * A token's end: HBase's its expiration date, HDFS's (and any Hadoop delegation token's) its
   * maximum date, past which no renewal keeps it. HBase's identifier is HBase's own class: the one
   * place this project reads it.
   */
  private static Optional<Instant> expiry(Token<? extends TokenIdentifier> token) {
    try {
      TokenIdentifier id = token.decodeIdentifier();
      if (id instanceof AuthenticationTokenIdentifier hbase) {
        return Optional.of(Instant.ofEpochMilli(hbase.getExpirationDate()));
      }
      if (id instanceof AbstractDelegationTokenIdentifier hadoop && hadoop.getMaxDate() > 0) {
        return Optional.of(Instant.ofEpochMilli(hadoop.getMaxDate()));
      }
    } catch (IOException | RuntimeException unreadable) {
      // A token of a kind this JVM has no class for: not one this job's connections use.
    }
    return Optional.empty();
  }

  /** The Kerberos name the job runs as, for the {@code --principal} a line suggests. */
  public static String user() {
    try {
      return UserGroupInformation.getCurrentUser().getUserName();
    } catch (IOException e) {
      return "USER@REALM";
    }
  }
}
