package io.rekey.generate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Makes a messages table the way many real ones start: the row key puts the time first ({@code
 * <epoch-millis>_<sender>_<message-id>}), so every new write lands in the last region; a few
 * senders send most messages (Zipf); bodies have a long-tailed size; some rows hold 2–3 versions of
 * {@code m:read}. The same seed gives the same rows, byte for byte.
 */
public final class MessageGenerator {
  /** The Zipf exponent of the sender distribution: the top 1% of senders send about half. */
  public static final double SENDER_SKEW = 1.1;

  private static final String[] WORDS = {
    "meeting", "report", "invoice", "lunch", "project", "update", "review", "deadline", "call",
    "draft", "budget", "schedule", "weekend", "photos", "contract", "offer", "reminder", "thanks",
    "question", "plan", "release", "ticket", "server", "order", "delivery", "payment", "team",
    "notes", "agenda", "travel", "hotel", "flight", "birthday", "party", "coffee", "tomorrow"
  };

  private final SplittableRandom random;
  private final double[] senderCdf;
  private final long startMillis;
  private final int intervalMillis;
  private final int multiVersionPercent;
  private long index;
  private long lastMillis;

  /**
   * @param seed the same seed gives the same messages
   * @param senders how many distinct senders ({@code user00000} …)
   * @param startMillis the time of the first message
   * @param multiVersionPercent the share of rows (0–100) with 2 or 3 versions of {@code m:read}
   */
  public MessageGenerator(long seed, int senders, long startMillis, int multiVersionPercent) {
    this(seed, senders, startMillis, multiVersionPercent, 1000);
  }

  /**
   * @param intervalMillis the mean time between two messages (1,000: one a second)
   */
  public MessageGenerator(
      long seed, int senders, long startMillis, int multiVersionPercent, int intervalMillis) {
    if (senders < 1) {
      throw new IllegalArgumentException("senders must be at least 1 but is " + senders);
    }
    this.random = new SplittableRandom(seed);
    this.senderCdf = zipfCdf(senders, SENDER_SKEW);
    this.startMillis = startMillis;
    this.multiVersionPercent = multiVersionPercent;
    this.intervalMillis = intervalMillis;
    this.lastMillis = startMillis - 1;
  }

  /** The next message; timestamps strictly increase, about one message an interval. */
  public Message next() {
    long i = index++;
    long ts =
        Math.max(lastMillis + 1, startMillis + i * intervalMillis + random.nextInt(intervalMillis));
    lastMillis = ts;
    String sender = userId(sampleSender());
    String recipient = userId(random.nextInt(senderCdf.length));
    String messageId = String.format("%016x", mix(i));
    String rowKey = ts + "_" + sender + "_" + messageId;

    List<Message.GeneratedCell> cells = new ArrayList<>(7);
    cells.add(cell("sender", ts, sender));
    cells.add(cell("recipient", ts, recipient));
    cells.add(cell("subject", ts, words(3 + random.nextInt(8))));
    cells.add(cell("body", ts, body()));
    if (random.nextInt(100) < multiVersionPercent) {
      long readAt = ts + 60_000L + random.nextInt(3_600_000);
      cells.add(cell("read", ts, "false"));
      cells.add(cell("read", readAt, "true"));
      if (random.nextBoolean()) {
        cells.add(cell("read", readAt + 60_000L + random.nextInt(86_400_000), "false"));
      }
    } else {
      cells.add(cell("read", ts, random.nextBoolean() ? "true" : "false"));
    }
    return new Message(rowKey, sender, ts, cells);
  }

  /** The sender id for index {@code n}: fixed width so ids sort the way they count. */
  public static String userId(int n) {
    return String.format("user%05d", n);
  }

  private int sampleSender() {
    double u = random.nextDouble();
    int lo = 0;
    int hi = senderCdf.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (senderCdf[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private String body() {
    // Log-normal length: median about 400 bytes, a long tail up to 16 KiB.
    double length = Math.exp(6.0 + random.nextGaussian() * 0.9);
    int target = (int) Math.max(20, Math.min(16_384, length));
    StringBuilder text = new StringBuilder(target + 16);
    while (text.length() < target) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    text.setLength(target);
    return text.toString();
  }

  private String words(int n) {
    StringBuilder text = new StringBuilder();
    for (int w = 0; w < n; w++) {
      if (w > 0) {
        text.append(' ');
      }
      text.append(WORDS[random.nextInt(WORDS.length)]);
    }
    return text.toString();
  }

  private static Message.GeneratedCell cell(String qualifier, long ts, String value) {
    return new Message.GeneratedCell(qualifier, ts, value.getBytes(StandardCharsets.UTF_8));
  }

  private static double[] zipfCdf(int n, double s) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int k = 0; k < n; k++) {
      sum += 1.0 / Math.pow(k + 1, s);
      cdf[k] = sum;
    }
    for (int k = 0; k < n; k++) {
      cdf[k] /= sum;
    }
    cdf[n - 1] = 1.0;
    return cdf;
  }

  /** SplitMix64's finalizer: a bijection, so distinct indexes give distinct message ids. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
