package io.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rekey.index.IndexStats;
import io.rekey.rekey.MapStats;
import io.rekey.rekey.SyncStats;
import org.junit.jupiter.api.Test;

class CountsLineTest {
  @Test
  void everyStageCountsRoundTripsInComponentOrder() {
    MapStats map = new MapStats(1, 2, 3, 4, 5);
    assertEquals("1 2 3 4 5", map.toLine());
    assertEquals(map, MapStats.fromLine(map.toLine()));

    SyncStats sync = new SyncStats(1, 2, 3, 4, 5, 6, 7, 8, 9, Long.MAX_VALUE);
    assertEquals(sync, SyncStats.fromLine(sync.toLine()));

    IndexStats index = new IndexStats(8, 7, 6, 5, 4, 3, 2, 1);
    assertEquals("8 7 6 5 4 3 2 1", index.toLine());
    assertEquals(index, IndexStats.fromLine(index.toLine() + "\n"));
  }

  @Test
  void aLineOfAnotherShapeIsRefusedNotMisread() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MapStats.fromLine("1 2 3 4"));
    assertEquals("a line of MapStats has 5 counts: 1 2 3 4", e.getMessage());
  }
}
