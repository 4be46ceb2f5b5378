package io.rekey.pacing;

import java.util.function.LongSupplier;
import org.apache.hbase.thirdparty.com.google.common.util.concurrent.RateLimiter;

/**
 * The rate one task sends at: at most its ceiling (none when 0), halved each time HBase answers
 * that it is busy, and raised by half again after every calm interval without such an answer, until
 * it is back at the ceiling (or, without one, at the pace it had before HBase pushed back, when it
 * stops limiting). The pacing itself is Guava's {@link RateLimiter}, as HBase ships it.
 *
 * <p>One instance per task and thread; not thread-safe.
 */
public final class AdaptiveRate {
  /** Never slower than this many permits per second. */
  static final double FLOOR = 10;

  /** How long without a busy answer before the rate grows again. */
  static final long CALM_NANOS = 5_000_000_000L;

  /** The first back-off, doubled on each busy answer in a row, up to {@link #MAX_BACKOFF_MS}. */
  static final long FIRST_BACKOFF_MS = 200;

  static final long MAX_BACKOFF_MS = 10_000;

  private final double ceiling;
  private final LongSupplier nanoTime;
  private final long started;
  private RateLimiter limiter;
  private double unlimitedPace;
  private long permits;
  private long lastBusy;
  private long lastRaise;
  private int busyInARow;

  /** A rate of at most {@code ceiling} permits per second, or none when 0. */
  public AdaptiveRate(double ceiling) {
    this(ceiling, System::nanoTime);
  }

  AdaptiveRate(double ceiling, LongSupplier nanoTime) {
    this.ceiling = ceiling;
    this.nanoTime = nanoTime;
    this.started = nanoTime.getAsLong();
    this.limiter = ceiling > 0 ? RateLimiter.create(ceiling) : null;
  }

  /** Waits until {@code n} more permits may go (at once when nothing limits). */
  public void acquire(int n) {
    permits += n;
    if (limiter != null && n > 0) {
      limiter.acquire(n);
    }
  }

  /** The permits per second now allowed; 0 when nothing limits. */
  public double rate() {
    return limiter == null ? 0 : limiter.getRate();
  }

  /**
   * HBase answered busy: halves the rate (from the pace so far when nothing limited it yet).
   *
   * @return how long to wait before sending again, in milliseconds
   */
  public long busy() {
    long now = nanoTime.getAsLong();
    double current;
    if (limiter == null) {
      double seconds = Math.max(1, (now - started) / 1e9);
      current = permits / seconds;
      unlimitedPace = current;
      limiter = RateLimiter.create(Math.max(FLOOR, current / 2));
    } else {
      current = limiter.getRate();
      limiter.setRate(Math.max(FLOOR, current / 2));
    }
    lastBusy = now;
    lastRaise = now;
    long backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(busyInARow, 10));
    busyInARow++;
    return backoff;
  }

  /** HBase took what was sent: after a calm interval the rate grows back. */
  public void calm() {
    busyInARow = 0;
    if (limiter == null) {
      return;
    }
    long now = nanoTime.getAsLong();
    if (now - lastBusy < CALM_NANOS || now - lastRaise < CALM_NANOS) {
      return;
    }
    lastRaise = now;
    double raised = limiter.getRate() * 1.5;
    if (ceiling > 0) {
      limiter.setRate(Math.min(ceiling, raised));
    } else if (raised >= unlimitedPace) {
      limiter = null;
    } else {
      limiter.setRate(raised);
    }
  }
}
