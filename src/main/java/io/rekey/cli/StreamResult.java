package io.rekey.cli;

import io.rekey.common.JsonResult;
import io.rekey.stream.StreamPeer;
import io.rekey.stream.endpoint.Fences;
import io.rekey.stream.endpoint.WriteRate;
import java.util.List;

/**
 * What {@code stream start}, {@code stream status} and {@code stream stop} say of a stream.
 *
 * @param peerId the stream's replication peer
 * @param exists whether the peer exists after the command
 * @param enabled whether it ships edits; false when it does not exist
 * @param bandwidth bytes of WAL entries each region server ships it a second; 0 for no limit
 * @param serial whether the peer is serial: HBase ships each region's edits in their order across
 *     moves, splits and dead servers, and the endpoint writes them in that order (a table with
 *     NEW_VERSION_BEHAVIOR, where a delete hides only what was written before it)
 * @param source the table whose WAL edits it re-keys; null when it does not exist
 * @param target the table it writes; null when it does not exist
 * @param sourceKey the source's key layout; null when it does not exist
 * @param targetKey the target's key layout; null when it does not exist
 * @param queues HBase's figures per region server queue of the peer (age of the last shipped edit,
 *     lag, WAL files waiting, edits shipped of WAL entries read): progress, refreshed every few
 *     seconds, not a proof of a drain
 * @param targetWrites what each WAL queue's endpoint wrote into the target and how fast, as the
 *     endpoint recorded it (read by {@code stream status}; empty elsewhere)
 * @param refusedRows source rows the stream's layout could not place, recorded by the endpoint and
 *     not written, and target rows a kept index could not make an entry for ({@code index TABLE
 *     ROW}); read by {@code stream status}, 0 elsewhere
 * @param refusedExamples the first few of them, {@code ROW: REASON}
 * @param reverse whether the stream rolls a migration back: it carries the migrated table's edits
 *     (its source) back into the table migrated from (its target) through the inverse mapping; the
 *     keys stay the migration's
 * @param indexes the indexes of the target the stream keeps, {@code TABLE (by VALUE)}
 */
public record StreamResult(
    String peerId,
    boolean exists,
    boolean enabled,
    long bandwidth,
    boolean serial,
    String source,
    String target,
    String sourceKey,
    String targetKey,
    List<StreamPeer.Queue> queues,
    List<WriteRate.Figure> targetWrites,
    long refusedRows,
    List<String> refusedExamples,
    boolean reverse,
    List<String> indexes)
    implements JsonResult {
  static StreamResult of(String peerId, StreamPeer.Status s) {
    return of(peerId, s, new Fences.Refused(0, List.of()), List.of());
  }

  static StreamResult of(
      String peerId,
      StreamPeer.Status s,
      Fences.Refused refused,
      List<WriteRate.Figure> targetWrites) {
    if (s == null) {
      return new StreamResult(
          peerId, false, false, 0, false, null, null, null, null, List.of(), List.of(), 0,
          List.of(), false, List.of());
    }
    return new StreamResult(
        peerId,
        true,
        s.enabled(),
        s.bandwidth(),
        s.serial(),
        s.settings().source().getNameAsString(),
        s.settings().target().getNameAsString(),
        s.settings().sourceKey(),
        s.settings().targetKey(),
        s.queues(),
        targetWrites,
        refused.count(),
        refused.examples(),
        s.settings().reverse(),
        s.settings().indexes().stream()
            .map(i -> i.table().getNameAsString() + " (by " + i.shape().valueName() + ")")
            .toList());
  }

  /** The result as the commands print it. */
  String text(String verb) {
    StringBuilder out = new StringBuilder();
    if (!exists) {
      return "stream " + verb + ": no stream (replication peer) '" + peerId + "'\n";
    }
    out.append(
        String.format(
            "stream %s: %s -> %s (replication peer %s, %s%s%s%s)%n  keys           %s %s %s%n",
            verb,
            source,
            target,
            peerId,
            enabled ? "enabled" : "DISABLED",
            bandwidth > 0
                ? String.format(", at most %,d bytes a second from each region server", bandwidth)
                : "",
            serial ? ", serial: each row's edits in their order" : "",
            reverse ? ", reverse: the migration's keys run backwards" : "",
            sourceKey,
            reverse ? "<=" : "=>",
            targetKey));
    for (StreamPeer.Queue q : queues) {
      out.append("  queue          ").append(q.describe()).append('\n');
    }
    for (String index : indexes) {
      out.append("  keeps index    ").append(index).append('\n');
    }
    long now = System.currentTimeMillis();
    for (WriteRate.Figure w : targetWrites) {
      out.append("  target writes  ").append(w.describe(now)).append('\n');
    }
    if (refusedRows > 0) {
      out.append("  refused        ")
          .append(refusedRows)
          .append(
              " row(s) the layout cannot place (not written) or an index cannot make an entry"
                  + " for (first: ")
          .append(String.join("; ", refusedExamples))
          .append(")\n");
    }
    return out.toString();
  }
}
