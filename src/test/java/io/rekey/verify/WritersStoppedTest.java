package io.rekey.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.hbase.RegionActivity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timestamp-free proof that writers stopped, over readings of a table's regions. */
class WritersStoppedTest {
  private static final String RS1 = "rs1,16020,1";
  private static final String RS2 = "rs2,16020,1";

  private static RegionActivity region(
      String name, String start, String end, String server, long w) {
    return new RegionActivity(name, server, start, end, w);
  }

  private static final List<RegionActivity> BEFORE =
      List.of(region("aaa", "", "m", RS1, 10), region("bbb", "m", "", RS2, 7));

  @Test
  void theSameRegionsOnTheSameServersWithTheSameCountsProveNothingWasWritten() {
    assertThat(WritersStopped.change("t", BEFORE, List.copyOf(BEFORE))).isNull();
  }

  @Test
  void eachKindOfChangeIsNamedInOneLine() {
    record Case(List<RegionActivity> after, String says) {}
    List<Case> cases =
        List.of(
            new Case(
                List.of(region("aaa", "", "m", RS1, 10), region("bbb", "m", "", RS2, 8)),
                "region bbb ['m', '') on rs2,16020,1 served 1 write request."),
            new Case(
                List.of(region("aaa", "", "m", RS1, 13), region("bbb", "m", "", RS2, 9)),
                "region aaa ['', 'm') on rs1,16020,1 served 3 write requests (and 1 more regions"),
            new Case(
                List.of(region("aaa", "", "m", RS2, 0), region("bbb", "m", "", RS2, 7)),
                "region aaa moved from rs1,16020,1 to rs2,16020,1"),
            new Case(
                List.of(region("aaa", "", "m", RS1, 2), region("bbb", "m", "", RS2, 7)),
                "region aaa ['', 'm') on rs1,16020,1 was reopened (its write count went from 10"),
            new Case(
                List.of(
                    region("aaa", "", "m", RS1, 10),
                    region("ccc", "m", "t", RS2, 0),
                    region("ddd", "t", "", RS2, 0)),
                "region ccc ['m', 't') appeared (a split or merge) (and 2 more regions"),
            new Case(List.of(region("aaa", "", "m", RS1, 10)), "region bbb went away"),
            new Case(
                List.of(region("aaa", "", "k", RS1, 10), region("bbb", "m", "", RS2, 7)),
                "region aaa ['', 'k') had ['', 'm')"));
    for (Case c : cases) {
      String line = WritersStopped.change("ns:t", BEFORE, c.after());
      assertThat(line)
          .as(c.says())
          .startsWith("ns:t changed while the final sync ran: ")
          .contains(c.says())
          .contains("Stop every writer")
          .doesNotContain("\n");
    }
  }
}
