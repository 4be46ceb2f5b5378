package io.rekey.write;

import io.rekey.pacing.AdaptiveRate;
import io.rekey.pacing.Throttle;
import io.rekey.security.DelegationTokens;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A buffered mutator that keeps to the throttle's write rate and backs off when the region servers
 * push back. HBase's client retries each mutation a few times ({@link #CLIENT_RETRIES}, set on the
 * writers' connection) and then hands back the ones it could not place; those are sent again after
 * a wait, up to {@link #GIVE_UP_MS} without progress. A busy answer ({@code RegionTooBusyException}
 * from a region over its memstore limit, a full call queue, a quota) also halves the rate ({@link
 * AdaptiveRate}), which grows back once the servers keep up. Every such answer is counted, and the
 * caller's result shows it.
 */
final class PacedMutator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PacedMutator.class);

  /** The HBase client's own attempts per mutation before this class takes over. */
  static final int CLIENT_RETRIES = 3;

  /** How long mutations may keep failing, with no batch getting through, before the task fails. */
  static final long GIVE_UP_MS = 10 * 60_000;

  private static final long WRITE_BUFFER = 8L << 20;

  /** The longest wait before sending again what failed for another reason (a region moving). */
  private static final long MAX_RETRY_WAIT_MS = 10_000;

  /** What region servers answer when they shed load rather than fail. */
  private static final Set<String> BUSY =
      Set.of(
          "RegionTooBusyException",
          "CallQueueTooBigException",
          "CallDroppedException",
          "RpcThrottlingException",
          "ServerTooBusyException");

  private final BufferedMutator out;
  private final AdaptiveRate rate;
  private final String table;
  private final List<Row> refused = new ArrayList<>();
  private final List<Throwable> causes = new ArrayList<>();
  private final DelegationTokens.Watch tokens = new DelegationTokens.Watch();
  private long busyAnswers;
  private long backoffMillis;

  PacedMutator(Connection connection, String table, Configuration conf) throws IOException {
    this.table = table;
    this.rate = new AdaptiveRate(Throttle.of(conf).writeRate());
    this.out =
        connection.getBufferedMutator(
            new BufferedMutatorParams(TableName.valueOf(table))
                .writeBufferSize(WRITE_BUFFER)
                .listener(
                    (e, mutator) -> {
                      synchronized (refused) {
                        for (int i = 0; i < e.getNumExceptions(); i++) {
                          refused.add(e.getRow(i));
                          causes.add(e.getCause(i));
                        }
                      }
                    }));
  }

  /** The writers' connection settings: few client retries, so this class sees busy answers. */
  static Configuration writerConf(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.setInt("hbase.client.retries.number", CLIENT_RETRIES);
    return c;
  }

  /** Sends {@code m}, which holds {@code cells} cells, when the rate allows. */
  void send(Mutation m, int cells) throws IOException {
    rate.acquire(cells);
    tokens.check();
    out.mutate(m);
    settle();
  }

  /** Sends everything buffered and waits until HBase took it all. */
  void flush() throws IOException {
    tokens.check();
    out.flush();
    settle();
  }

  /** Mutations HBase answered busy and this class sent again later. */
  long busyAnswers() {
    return busyAnswers;
  }

  /** Time spent waiting before sending refused mutations again. */
  long backoffMillis() {
    return backoffMillis;
  }

  /** Sends again what HBase handed back, after a wait, until nothing is left. */
  private void settle() throws IOException {
    long since = System.currentTimeMillis();
    for (int round = 0; ; round++) {
      List<Row> again;
      List<Throwable> why;
      synchronized (refused) {
        if (refused.isEmpty()) {
          rate.calm();
          return;
        }
        again = new ArrayList<>(refused);
        why = new ArrayList<>(causes);
        refused.clear();
        causes.clear();
      }
      long busy = why.stream().filter(PacedMutator::isBusy).count();
      for (Throwable t : why) {
        if (!isBusy(t) && isFinal(t)) {
          throw new IOException(
              table + " refused a write: " + t.getMessage(),
              new RetriesExhaustedWithDetailsException(why, again, List.of()));
        }
      }
      if (System.currentTimeMillis() - since > GIVE_UP_MS) {
        throw new IOException(
            table
                + " has refused "
                + again.size()
                + " writes for "
                + GIVE_UP_MS / 60_000
                + " minutes; the last answer: "
                + why.get(why.size() - 1));
      }
      long wait;
      if (busy > 0) {
        busyAnswers += busy;
        wait = rate.busy();
        LOG.warn(
            "{} answered busy to {} of {} writes ({}); waiting {} ms, then sending at most {}"
                + " cells/s",
            table,
            busy,
            again.size(),
            why.stream().filter(PacedMutator::isBusy).findFirst().map(Throwable::toString).get(),
            wait,
            Math.round(rate.rate()));
      } else {
        wait = Math.min(MAX_RETRY_WAIT_MS, 1000L << Math.min(round, 10));
        LOG.warn(
            "{} did not take {} writes ({}); sending them again in {} ms",
            table,
            again.size(),
            why.get(0),
            wait);
      }
      sleep(wait);
      backoffMillis += wait;
      for (Row r : again) {
        out.mutate((Mutation) r);
      }
      out.flush();
    }
  }

  static boolean isBusy(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (BUSY.contains(c.getClass().getSimpleName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isFinal(Throwable t) {
    // An expired token fails every attempt: the task fails, and a retry takes a renewed one.
    return t instanceof DoNotRetryIOException || DelegationTokens.expiredIn(t);
  }

  private static void sleep(long ms) throws InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while backing off from " + e);
    }
  }

  @Override
  public void close() throws IOException {
    boolean expired = false;
    try {
      flush();
    } catch (IOException e) {
      expired = DelegationTokens.expiredIn(e);
      throw e;
    } finally {
      // Closing flushes what is buffered, looking up each row's region with the expired token for
      // a minute or more: the task fails without, and what it buffered was never counted written.
      if (!expired) {
        out.close();
      }
    }
  }
}
