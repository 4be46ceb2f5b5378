package io.rekey.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The cluster's own users, simulated: a steady mix of Gets and Puts on a table of their own, at a
 * fixed rate whatever the latency (an open loop: each operation is due at its time, and its latency
 * counts from then, so a stalled server shows as the wait it causes rather than as fewer
 * operations). Latencies go to an HdrHistogram {@link Recorder}; once a second the interval is
 * labelled with what the tool was doing then ({@code label}) and kept, per second for the timeline
 * and summed per label for the figures.
 */
final class ForegroundLoad implements AutoCloseable {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("v");

  /** Latencies up to a minute, three significant digits, in microseconds. */
  private static final long MAX_MICROS = 60_000_000L;

  private final Connection connection;
  private final TableName table;
  private final int rows;
  private final int ratePerSecond;
  private final double putShare;
  private final Supplier<String> label;
  private final Recorder recorder = new Recorder(MAX_MICROS, 3);
  private final ExecutorService workers = Executors.newFixedThreadPool(32);
  private final ThreadLocal<Table> tables;
  private final AtomicLong failures = new AtomicLong();
  private final List<Map<String, Object>> timeline = new ArrayList<>();
  private final Map<String, Histogram> byLabel = new LinkedHashMap<>();
  private final long started = System.nanoTime();
  private volatile boolean running = true;
  private final Thread dispatcher;
  private final Thread sampler;

  /**
   * @param rows the table's rows, {@code row00000000} on (see {@link #fill})
   * @param label what the tool is doing now, for each second's sample
   */
  ForegroundLoad(
      Connection connection,
      TableName table,
      int rows,
      int ratePerSecond,
      double putShare,
      Supplier<String> label) {
    this.connection = connection;
    this.table = table;
    this.rows = rows;
    this.ratePerSecond = ratePerSecond;
    this.putShare = putShare;
    this.label = label;
    this.tables =
        ThreadLocal.withInitial(
            () -> {
              try {
                return connection.getTable(table);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    this.dispatcher = new Thread(this::dispatch, "foreground-dispatch");
    this.sampler = new Thread(this::sample, "foreground-sample");
    dispatcher.setDaemon(true);
    sampler.setDaemon(true);
    dispatcher.start();
    sampler.start();
  }

  /** Writes {@code rows} rows of one {@code valueBytes} cell each. */
  static void fill(Connection c, TableName table, int rows, int valueBytes) throws IOException {
    byte[] value = new byte[valueBytes];
    try (BufferedMutator out = c.getBufferedMutator(table)) {
      for (int i = 0; i < rows; i++) {
        ThreadLocalRandom.current().nextBytes(value);
        out.mutate(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value.clone()));
      }
    }
  }

  static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%08d", i));
  }

  static byte[] family() {
    return FAMILY;
  }

  private void dispatch() {
    long interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
    long due = System.nanoTime();
    while (running) {
      due += interval;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      }
      long intended = due;
      workers.execute(() -> operate(intended));
    }
  }

  private void operate(long intended) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] key = row(random.nextInt(rows));
    try {
      Table t = tables.get();
      if (random.nextDouble() < putShare) {
        byte[] value = new byte[200];
        random.nextBytes(value);
        t.put(new Put(key).addColumn(FAMILY, QUALIFIER, value));
      } else {
        t.get(new Get(key));
      }
    } catch (IOException | RuntimeException e) {
      failures.incrementAndGet();
    }
    recorder.recordValue(Math.min(MAX_MICROS, (System.nanoTime() - intended) / 1_000));
  }

  private void sample() {
    Histogram interval = null;
    while (running) {
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        return;
      }
      interval = recorder.getIntervalHistogram(interval);
      String now = label.get();
      synchronized (this) {
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("second", Math.round((System.nanoTime() - started) / 1e9));
        point.put("label", now);
        point.put("ops", interval.getTotalCount());
        point.put("p50Ms", millis(interval.getValueAtPercentile(50)));
        point.put("p99Ms", millis(interval.getValueAtPercentile(99)));
        point.put("maxMs", millis(interval.getMaxValue()));
        timeline.add(point);
        byLabel.computeIfAbsent(now, k -> new Histogram(MAX_MICROS, 3)).add(interval);
      }
    }
  }

  /** The latencies summed per label so far, and forgets them (for the next round). */
  synchronized Map<String, Histogram> takeByLabel() {
    Map<String, Histogram> out = new LinkedHashMap<>(byLabel);
    byLabel.clear();
    return out;
  }

  synchronized List<Map<String, Object>> timeline() {
    return new ArrayList<>(timeline);
  }

  long failures() {
    return failures.get();
  }

  /** p50, p99 and max in milliseconds, and the operations behind them. */
  static Map<String, Object> figures(Histogram h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ops", h.getTotalCount());
    m.put("p50Ms", millis(h.getValueAtPercentile(50)));
    m.put("p99Ms", millis(h.getValueAtPercentile(99)));
    m.put("maxMs", millis(h.getMaxValue()));
    return m;
  }

  private static double millis(long micros) {
    return Math.round(micros / 10.0) / 100.0;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    dispatcher.interrupt();
    sampler.interrupt();
    dispatcher.join();
    sampler.join();
    workers.shutdown();
    workers.awaitTermination(30, TimeUnit.SECONDS);
  }
}
