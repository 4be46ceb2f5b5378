package io.rekey.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MessageGeneratorTest {
  static final long START = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  @Test
  void theSameSeedGivesTheSameRows() {
    MessageGenerator a = new MessageGenerator(7, 100, START, 10);
    MessageGenerator b = new MessageGenerator(7, 100, START, 10);
    for (int i = 0; i < 1000; i++) {
      Message x = a.next();
      Message y = b.next();
      assertThat(x.rowKey()).isEqualTo(y.rowKey());
      assertThat(x.cells()).hasSameSizeAs(y.cells());
      for (int c = 0; c < x.cells().size(); c++) {
        assertThat(x.cells().get(c).value()).isEqualTo(y.cells().get(c).value());
        assertThat(x.cells().get(c).timestamp()).isEqualTo(y.cells().get(c).timestamp());
      }
    }
    assertThat(new MessageGenerator(8, 100, START, 10).next().rowKey())
        .isNotEqualTo(new MessageGenerator(7, 100, START, 10).next().rowKey());
  }

  @Test
  void keysAreTimeFirstStrictlyIncreasingAndUnique() {
    MessageGenerator g = new MessageGenerator(1, 50, START, 10);
    String previous = "";
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 5000; i++) {
      Message m = g.next();
      assertThat(m.rowKey()).matches("\\d{13}_user\\d{5}_[0-9a-f]{16}");
      assertThat(m.rowKey()).startsWith(Long.toString(m.timestamp()) + "_" + m.sender() + "_");
      assertThat(m.rowKey().compareTo(previous)).isPositive();
      previous = m.rowKey();
      keys.add(m.rowKey());
    }
    assertThat(keys).hasSize(5000);
  }

  @Test
  void aFewSendersSendMostMessages() {
    MessageGenerator g = new MessageGenerator(3, 1000, START, 10);
    Map<String, Integer> counts = new HashMap<>();
    int n = 50_000;
    for (int i = 0; i < n; i++) {
      counts.merge(g.next().sender(), 1, Integer::sum);
    }
    int top10 =
        counts.values().stream()
            .sorted((x, y) -> y - x)
            .limit(10)
            .mapToInt(Integer::intValue)
            .sum();
    // Zipf(1.1) over 1000 senders: the top 1% send about 40% of the messages.
    assertThat((double) top10 / n).isBetween(0.3, 0.6);
    assertThat(counts.get("user00000")).isGreaterThan(counts.getOrDefault("user00500", 0) * 20);
  }

  @Test
  void someRowsHoldSeveralVersionsOfRead() {
    MessageGenerator g = new MessageGenerator(5, 100, START, 10);
    int multi = 0;
    int n = 10_000;
    for (int i = 0; i < n; i++) {
      Message m = g.next();
      long reads = m.cells().stream().filter(c -> c.qualifier().equals("read")).count();
      assertThat(reads).isBetween(1L, 3L);
      if (reads > 1) {
        multi++;
        long distinctTs =
            m.cells().stream()
                .filter(c -> c.qualifier().equals("read"))
                .mapToLong(Message.GeneratedCell::timestamp)
                .distinct()
                .count();
        assertThat(distinctTs).isEqualTo(reads);
      }
      assertThat(m.cells())
          .extracting(Message.GeneratedCell::qualifier)
          .contains("sender", "recipient", "subject", "body");
    }
    assertThat((double) multi / n).isBetween(0.08, 0.12);
  }

  @Test
  void bodiesHaveALongTail() {
    MessageGenerator g = new MessageGenerator(9, 100, START, 0);
    int over2k = 0;
    long total = 0;
    int n = 10_000;
    for (int i = 0; i < n; i++) {
      int len =
          g.next().cells().stream()
              .filter(c -> c.qualifier().equals("body"))
              .findFirst()
              .orElseThrow()
              .value()
              .length;
      assertThat(len).isBetween(20, 16_384);
      total += len;
      if (len > 2048) {
        over2k++;
      }
    }
    assertThat(total / n).isBetween(300L, 1000L);
    assertThat(over2k).isPositive();
  }
}
