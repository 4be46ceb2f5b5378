package io.rekey.stream;

import io.rekey.common.JsonResult;
import java.util.List;

/**
 * What {@code stream switch} decided.
 *
 * @param peerId the stream's replication peer
 * @param source the table the writers stopped writing
 * @param target the table that may replace it
 * @param switchNow true only when every fact of {@link StreamDrain} held: the target holds every
 *     edit the source took before the stop
 * @param refusal why not, in one line; null when it may switch
 * @param pauseSeconds from the command's start (the writers stopped) to the verdict
 * @param ackSeconds how long the fences took to be acknowledged
 * @param servers live region servers fenced
 * @param fenceId the round's id in the fence table (its time)
 * @param indexes the indexes the stream keeps, which hold every edit before the stop too when it
 *     may switch (their watermarks are at the fences' time)
 */
public record StreamSwitchResult(
    String peerId,
    String source,
    String target,
    boolean switchNow,
    String refusal,
    double pauseSeconds,
    double ackSeconds,
    int servers,
    long fenceId,
    List<String> indexes)
    implements JsonResult {

  /** The result as the command prints it. */
  public String text() {
    if (!switchNow) {
      return "stream switch: do not switch: " + refusal + "\n";
    }
    StringBuilder indexed = new StringBuilder();
    for (String index : indexes) {
      indexed.append(
          String.format(
              "  and in its index %s (watermark at the fences, %s)%n",
              index, java.time.Instant.ofEpochMilli(fenceId)));
    }
    return String.format(
        "stream switch: %s -> %s: every edit %s took before its writers stopped is in %s"
            + " (fences acknowledged on %d region server(s) in %.1f s; pause so far %.1f s)%n"
            + "%sswitch: point readers and writers at %s now%n",
        source, target, source, target, servers, ackSeconds, pauseSeconds, indexed, target);
  }
}
