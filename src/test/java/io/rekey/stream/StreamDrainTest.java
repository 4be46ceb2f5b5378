package io.rekey.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.hbase.RegionActivity;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.HiddenCells;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The switch's drain proof over plain facts: each gap in it refuses, in one line. */
class StreamDrainTest {
  private static final String RS1 = "rs1,16020,1";
  private static final String RS2 = "rs2,16020,1";
  private static final List<RegionActivity> SOURCE =
      List.of(
          new RegionActivity("aaa", RS1, "", "m", 10), new RegionActivity("bbb", RS2, "m", "", 7));

  /** Every fact holds: two servers, each fenced, each fence acknowledged, nothing moved. */
  private static StreamDrain drained() {
    return new StreamDrain(
        "src",
        SOURCE,
        List.copyOf(SOURCE),
        Set.of(RS1, RS2),
        Set.of(RS1, RS2),
        Map.of(0, RS1 + "@5", 1, RS2 + "@9"),
        Map.of(0, RS1 + "@5", 1, RS2 + "@9"),
        Map.of(0, 0L, 1, 0L),
        0.4,
        List.of(),
        List.of(),
        new Fences.Refused(0, List.of()),
        null,
        HiddenCells.Differing.NONE);
  }

  private static StreamDrain with(UnaryOperator<Object[]> change) {
    StreamDrain d = drained();
    Object[] f = {
      d.source(),
      d.sourceBefore(),
      d.sourceAfter(),
      d.serversBefore(),
      d.serversAfter(),
      d.fencesBefore(),
      d.fencesAfter(),
      d.acks(),
      d.waitedSeconds(),
      d.recoveredQueues(),
      d.crashRecoveries(),
      d.refused(),
      d.acceptedRefused(),
      d.differing()
    };
    f = change.apply(f);
    @SuppressWarnings("unchecked")
    StreamDrain out =
        new StreamDrain(
            (String) f[0],
            (List<RegionActivity>) f[1],
            (List<RegionActivity>) f[2],
            (Set<String>) f[3],
            (Set<String>) f[4],
            (Map<Integer, String>) f[5],
            (Map<Integer, String>) f[6],
            (Map<Integer, Long>) f[7],
            (Double) f[8],
            (List<String>) f[9],
            (List<String>) f[10],
            (Fences.Refused) f[11],
            (Long) f[12],
            (HiddenCells.Differing) f[13]);
    return out;
  }

  private static UnaryOperator<Object[]> set(int i, Object value) {
    return f -> {
      f[i] = value;
      return f;
    };
  }

  @Test
  void everyFactHoldingLetsTheTargetReplaceTheSource() {
    assertThat(drained().refusal()).isEmpty();
    // Rows the layout cannot place, acknowledged exactly.
    Fences.Refused two = new Fences.Refused(2, List.of("r: unreadable"));
    assertThat(with(f -> set(11, two).apply(set(12, 2L).apply(f))).refusal()).isEmpty();
  }

  @Test
  void eachGapInTheProofRefusesInOneLineThatSaysWhatToDo() {
    Map<String, StreamDrain> cases = new HashMap<>();
    cases.put(
        "served 2 write requests",
        with(
            set(
                2,
                List.of(
                    new RegionActivity("aaa", RS1, "", "m", 12),
                    new RegionActivity("bbb", RS2, "m", "", 7)))));
    cases.put(
        "did not ship up to the fence on rs2,16020,1 within 60 s",
        with(f -> set(7, Map.of(0, 0L)).apply(set(8, 60.0).apply(f))));
    cases.put(
        "shipped 3 edit(s) of src logged after the fence on rs1",
        with(set(7, Map.of(0, 3L, 1, 0L))));
    cases.put(
        "region server rs2,16020,1 writes several WALs (hbase.wal.provider=multiwal)",
        with(set(7, Map.of(0, 0L, 1, Fences.SEVERAL_WALS))));
    cases.put(
        "fence region 1 moved or reopened during the switch",
        with(set(6, Map.of(0, RS1 + "@5", 1, RS2 + "@12"))));
    cases.put("the live region servers changed during the switch", with(set(4, Set.of(RS1))));
    cases.put(
        "region server rs2,16020,1 held no fence region",
        with(
            f ->
                set(5, Map.of(0, RS1 + "@5"))
                    .apply(set(6, Map.of(0, RS1 + "@5")).apply(set(7, Map.of(0, 0L)).apply(f)))));
    cases.put(
        "still recovering crash recovery procedure 17",
        with(set(10, List.of("crash recovery procedure 17 (RUNNABLE)"))));
    cases.put(
        "a recovered queue of the stream is still shipping",
        with(set(9, List.of("rekey_t-rs3,16020,1 on " + RS1))));
    Fences.Refused two = new Fences.Refused(2, List.of("row\\x01: unreadable field ts"));
    cases.put(
        "the stream could not place 2 source row(s) under the layout (first: row",
        with(set(11, two)));
    cases.put(
        "2 source row(s) under the layout (first: row\\x01: unreadable field ts), not the 1 acknowledged",
        with(f -> set(11, two).apply(set(12, 1L).apply(f))));
    cases.put(
        "1 cell(s) stamped in the past read differently from the source and the target (first:"
            + " r/m:b@5 is read from the source but hidden in the target)",
        with(
            set(
                13,
                new HiddenCells.Differing(
                    1, List.of("r/m:b@5 is read from the source but hidden in the target")))));
    cases.forEach(
        (says, drain) ->
            assertThat(drain.refusal())
                .as(says)
                .hasValueSatisfying(
                    line ->
                        assertThat(line)
                            .contains(says)
                            .contains("rekey stream switch' again")
                            .doesNotContain("\n")));
  }

  @Test
  void anUnfinishedCrashRecoveryIsReadFromTheMastersProcedures() {
    String json =
        "[{\"className\":\"org.apache.hadoop.hbase.master.procedure.ServerCrashProcedure\","
            + "\"procId\":\"17\",\"state\":\"RUNNABLE\"},"
            + "{\"className\":\"org.apache.hadoop.hbase.master.procedure.ServerCrashProcedure\","
            + "\"procId\":\"9\",\"state\":\"SUCCESS\"},"
            + "{\"className\":\"org.apache.hadoop.hbase.master.procedure.CreateTableProcedure\","
            + "\"procId\":\"18\",\"state\":\"RUNNABLE\"}]";
    assertThat(StreamSwitch.crashRecoveries(json))
        .containsExactly("crash recovery procedure 17 (RUNNABLE)");
  }
}
