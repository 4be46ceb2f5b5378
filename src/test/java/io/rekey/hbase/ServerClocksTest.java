package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

/**
 * The clocks of region servers from their reports to the master: servers that report every 300 ms
 * stamped with clocks 9 s ahead and 2 s behind, one that never reports again.
 */
class ServerClocksTest {
  private static final ServerName AHEAD = ServerName.valueOf("rs1,16020,1");
  private static final ServerName BEHIND = ServerName.valueOf("rs2,16020,1");
  private static final ServerName SILENT = ServerName.valueOf("rs3,16020,1");

  @Test
  void eachServersClockIsMeasuredFromItsNextReportAndASilentOneIsNamed() throws Exception {
    long start = System.currentTimeMillis();
    ServerClocks.Reports reports =
        () -> {
          long now = System.currentTimeMillis();
          // The last report each server sent: every 300 ms, each on its own phase.
          long sentAhead = now - (now - start + 50) % 300;
          long sentBehind = now - (now - start + 170) % 300;
          Map<ServerName, Long> out = new HashMap<>();
          out.put(AHEAD, sentAhead + 9_000);
          out.put(BEHIND, sentBehind - 2_000);
          out.put(SILENT, start - 60_000);
          return out;
        };
    ServerClocks.Measured m =
        ServerClocks.measure(
            reports, Set.of(AHEAD, BEHIND, SILENT), 1_000, System::currentTimeMillis);

    assertThat(m.silent()).containsExactly(SILENT);
    assertThat(m.clocks()).hasSize(2);
    for (ServerClocks.Clock c : m.clocks()) {
      long truth = c.server().equals(AHEAD) ? 9_000 : -2_000;
      assertThat(c.uncertaintyMillis()).isLessThan(400);
      assertThat(Math.abs(c.skewMillis() - truth)).isLessThanOrEqualTo(c.uncertaintyMillis());
    }
    assertThat(m.farthest().server()).isEqualTo(AHEAD);
  }

  @Test
  void noServersNoWait() throws Exception {
    long t0 = System.nanoTime();
    ServerClocks.Measured m =
        ServerClocks.measure(
            () -> {
              throw new AssertionError("not asked");
            },
            Set.of(),
            10_000,
            System::currentTimeMillis);
    assertThat(m.clocks()).isEmpty();
    assertThat(m.farthest()).isNull();
    assertThat(System.nanoTime() - t0).isLessThan(1_000_000_000L);
  }
}
