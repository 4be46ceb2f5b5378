package io.rekey.verify;

import io.rekey.hbase.RegionActivity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The proof, independent of cell timestamps, that nothing wrote to the source between two readings
 * of its regions ({@link RegionActivity}): the same regions, with the same boundaries, on the same
 * servers, each with the same write-request count. A write of any timestamp, a bulk load, a split,
 * a merge, a move or a reopened region is a change, and the first is named in one line.
 */
public final class WritersStopped {
  private WritersStopped() {}

  /** A region as a line names it: {@code region NAME ['START', 'END')}. */
  private static String where(RegionActivity r) {
    return "region " + r.region() + " ['" + r.startKey() + "', '" + r.endKey() + "')";
  }

  /** What changed between {@code before} and {@code after}, or null when nothing did. */
  public static String change(
      String table, List<RegionActivity> before, List<RegionActivity> after) {
    List<String> changes = changes(before, after);
    if (changes.isEmpty()) {
      return null;
    }
    return table
        + " changed while the final sync ran: "
        + first(changes)
        + ". A write of any timestamp or a bulk load counts: writers have not stopped, and what"
        + " they wrote may not be in the target. Stop every writer, then run 'rekey sync --final'"
        + " again";
  }

  /** The first change, and how many more regions changed. */
  public static String first(List<String> changes) {
    return changes.get(0)
        + (changes.size() > 1 ? " (and " + (changes.size() - 1) + " more regions changed)" : "");
  }

  /** Each region that changed between {@code before} and {@code after}, one phrase each. */
  public static List<String> changes(List<RegionActivity> before, List<RegionActivity> after) {
    Map<String, RegionActivity> then = new LinkedHashMap<>();
    before.forEach(r -> then.put(r.region(), r));
    List<String> changes = new ArrayList<>();
    for (RegionActivity now : after) {
      RegionActivity was = then.remove(now.region());
      if (was == null) {
        changes.add(where(now) + " appeared (a split or merge)");
      } else if (!was.startKey().equals(now.startKey()) || !was.endKey().equals(now.endKey())) {
        changes.add(where(now) + " had ['" + was.startKey() + "', '" + was.endKey() + "')");
      } else if (!was.server().equals(now.server())) {
        changes.add(
            "region " + now.region() + " moved from " + was.server() + " to " + now.server());
      } else if (was.writeRequests() != now.writeRequests()) {
        long more = now.writeRequests() - was.writeRequests();
        changes.add(
            where(now)
                + " on "
                + now.server()
                + (more > 0
                    ? " served " + more + " write request" + (more == 1 ? "" : "s")
                    : " was reopened (its write count went from "
                        + was.writeRequests()
                        + " to "
                        + now.writeRequests()
                        + ")"));
      }
    }
    for (RegionActivity gone : then.values()) {
      changes.add("region " + gone.region() + " went away (a split or merge)");
    }
    return changes;
  }
}
