package io.rekey.stream;

import io.rekey.hbase.RegionActivity;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.HiddenCells;
import io.rekey.verify.WritersStopped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decision of {@code stream switch}, apart from the cluster: the target holds every edit the
 * source took before its writers stopped only when
 *
 * <ul>
 *   <li>no source region served a write, moved, split or reopened from the first reading to the
 *       last ({@link WritersStopped});
 *   <li>every fence was acknowledged, with no source edit after it in its batch;
 *   <li>every live region server held a fence region, the same one from the write of the fences to
 *       their acknowledgement (a region that reopened may have logged its fence elsewhere), and the
 *       live servers did not change;
 *   <li>no recovered queue of the stream (a dead server's WALs) was still shipping, and no crashed
 *       server was still being recovered (its queues not yet claimed).
 * </ul>
 *
 * A fence proves the drain of its server's WAL up to it; these facts rule out the edits of the
 * source that could sit anywhere else.
 *
 * @param source the source table, as lines name it
 * @param sourceBefore the source's regions when the switch started
 * @param sourceAfter the source's regions after the acknowledgements
 * @param serversBefore the live region servers when the fences were placed
 * @param serversAfter the live region servers after the acknowledgements
 * @param fencesBefore fence region index to its location ({@code server@openSequence}) when the
 *     fences were written
 * @param fencesAfter the same after the acknowledgements
 * @param acks fence region index to the source edits its batch shipped after it
 * @param waitedSeconds how long the switch waited for the acknowledgements
 * @param recoveredQueues the stream's recovered queues the servers reported (one phrase each)
 * @param crashRecoveries crashed servers the master was still recovering
 * @param refused the source rows the stream's layout could not place (not in the target)
 * @param acceptedRefused how many of those the operator acknowledged ({@code --accept-unmapped});
 *     null: none may be
 * @param differing cells stamped in the past that one table still shows and the other hides, under
 *     a delete marker one of them compacted away ({@link HiddenCells})
 */
public record StreamDrain(
    String source,
    List<RegionActivity> sourceBefore,
    List<RegionActivity> sourceAfter,
    Set<String> serversBefore,
    Set<String> serversAfter,
    Map<Integer, String> fencesBefore,
    Map<Integer, String> fencesAfter,
    Map<Integer, Long> acks,
    double waitedSeconds,
    List<String> recoveredQueues,
    List<String> crashRecoveries,
    Fences.Refused refused,
    Long acceptedRefused,
    HiddenCells.Differing differing) {

  private static final String AGAIN = "run 'rekey stream switch' again";

  /**
   * What refuses a switch before any fence is written: a source region that changed between two
   * readings (a writer that has not stopped), or a crash recovery still running.
   */
  public static Optional<String> beforeFences(
      String source,
      List<RegionActivity> before,
      List<RegionActivity> after,
      List<String> crashRecoveries) {
    List<String> changed = WritersStopped.changes(before, after);
    if (!changed.isEmpty()) {
      return Optional.of(
          source
              + " changed during the switch: "
              + WritersStopped.first(changed)
              + ". A write of any timestamp or a bulk load counts: writers have not stopped; do"
              + " not switch. Stop every writer, then "
              + AGAIN);
    }
    if (!crashRecoveries.isEmpty()) {
      return Optional.of(
          "the master is still recovering "
              + String.join(", ", crashRecoveries)
              + ": the WALs of a crashed server reach the stream only once its queues are claimed;"
              + " wait until the recovery ends, then "
              + AGAIN);
    }
    return Optional.empty();
  }

  /** Why the target may not replace the source yet; empty when it may. */
  public Optional<String> refusal() {
    Optional<String> early = beforeFences(source, sourceBefore, sourceAfter, List.of());
    if (early.isPresent()) {
      return early;
    }
    List<String> unacked = new ArrayList<>();
    fencesBefore.forEach(
        (region, at) -> {
          if (!acks.containsKey(region)) {
            unacked.add(server(at));
          }
        });
    if (!unacked.isEmpty()) {
      return Optional.of(
          "the stream did not ship up to the fence on "
              + String.join(", ", new TreeSet<>(unacked))
              + " within "
              + Math.round(waitedSeconds)
              + " s, so nothing proves those servers' edits are in the target; do not switch. See"
              + " its queues and lag with 'rekey stream status' (a stalled target is named in the"
              + " region server's log), then "
              + AGAIN
              + " (or give it longer with --drain-timeout)");
    }
    for (Map.Entry<Integer, Long> ack : acks.entrySet()) {
      if (ack.getValue() == Fences.SEVERAL_WALS && fencesBefore.containsKey(ack.getKey())) {
        return Optional.of(
            "region server "
                + server(fencesBefore.get(ack.getKey()))
                + " writes several WALs (hbase.wal.provider=multiwal): a fence lands in one of"
                + " them and proves nothing of the others, so no switch of a stream can be proven"
                + " there; switch with 'rekey sync --final --repair', or give the source's servers"
                + " one WAL each (hbase.wal.provider=asyncfs) and "
                + AGAIN);
      }
      if (ack.getValue() > 0 && fencesBefore.containsKey(ack.getKey())) {
        return Optional.of(
            "the stream shipped "
                + ack.getValue()
                + " edit(s) of "
                + source
                + " logged after the fence on "
                + server(fencesBefore.get(ack.getKey()))
                + ": writers have not stopped; do not switch. Stop every writer, then "
                + AGAIN);
      }
    }
    for (Map.Entry<Integer, String> f : fencesBefore.entrySet()) {
      String after = fencesAfter.get(f.getKey());
      if (!f.getValue().equals(after)) {
        return Optional.of(
            "fence region "
                + f.getKey()
                + " moved or reopened during the switch ("
                + f.getValue()
                + " -> "
                + after
                + "), so its fence may have been logged on another server; "
                + AGAIN);
      }
    }
    if (!serversBefore.equals(serversAfter)) {
      return Optional.of(
          "the live region servers changed during the switch ("
              + new TreeSet<>(serversBefore)
              + " -> "
              + new TreeSet<>(serversAfter)
              + "): a server that left may hold edits no fence covered; wait until the master has"
              + " recovered it, then "
              + AGAIN);
    }
    Set<String> fenced = new TreeSet<>();
    fencesBefore.values().forEach(at -> fenced.add(server(at)));
    for (String s : new TreeSet<>(serversBefore)) {
      if (!fenced.contains(s)) {
        return Optional.of(
            "region server "
                + s
                + " held no fence region, so nothing proves its WAL shipped; "
                + AGAIN);
      }
    }
    Optional<String> recovering = beforeFences(source, List.of(), List.of(), crashRecoveries);
    if (recovering.isPresent()) {
      return recovering;
    }
    if (!recoveredQueues.isEmpty()) {
      return Optional.of(
          "a recovered queue of the stream is still shipping a dead server's WALs ("
              + recoveredQueues.get(0)
              + "): edits in it may not be in the target yet; wait until 'rekey stream status'"
              + " lists no recovered queue, then "
              + AGAIN);
    }
    long rows = refused.count();
    if (acceptedRefused == null ? rows > 0 : rows != acceptedRefused) {
      return Optional.of(
          "the stream could not place "
              + rows
              + " source row(s) under the layout"
              + (refused.examples().isEmpty() ? "" : " (first: " + refused.examples().get(0) + ")")
              + (acceptedRefused == null ? "" : ", not the " + acceptedRefused + " acknowledged")
              + ": they are not in the target. Fix or delete them in the source, or acknowledge"
              + " exactly them with --accept-unmapped "
              + rows
              + ", then "
              + AGAIN);
    }
    if (differing.count() > 0) {
      return Optional.of(
          differing.count()
              + " cell(s) stamped in the past read differently from the source and the target"
              + " (first: "
              + differing.examples().get(0)
              + "): a delete marker that one table's major compaction dropped still hides them in"
              + " the other, so writing the same cells cannot make the tables equal. Major-compact"
              + " the table that hides them (HBase shell: major_compact 'TABLE'), write them again"
              + " ('rekey repair' of their key range), then "
              + AGAIN);
    }
    return Optional.empty();
  }

  /** The server of a fence location {@code server@openSequence}. */
  private static String server(String location) {
    int at = location.lastIndexOf('@');
    return at < 0 ? location : location.substring(0, at);
  }
}
