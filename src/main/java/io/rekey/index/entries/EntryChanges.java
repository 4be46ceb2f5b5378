package io.rekey.index.entries;

import io.rekey.keys.KeyReject;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What an update writes for one source row whose index columns changed in its window: the row's
 * entries as it holds them now, a marker on every entry its row record lists that it no longer
 * gives (its value, a bound column or the row changed, or the row is gone), and its new record.
 * Plain Java over rows (tested without a cluster).
 *
 * <p>The row's entries are written again even when their keys did not change: a covered value may
 * have, and a rerun after a failed run cannot tell which of the failed run's cells were stored. An
 * entry written without a covered column it may have had first gets a marker just below the run's
 * time, hiding its older cells. Markers on retired entries are at the run's time; a later run
 * writing the same key (a row moving back) writes later, so it stays visible.
 */
public final class EntryChanges implements Serializable {
  private static final long serialVersionUID = 1L;

  private final IndexEntries entries;

  public EntryChanges(IndexEntries entries) {
    this.entries = entries;
  }

  /**
   * One row's change.
   *
   * @param made the row's entries now; empty when it has none or was rejected
   * @param rejected why its entries could not be made, or null
   * @param records the cells to write, as {@link io.rekey.write.ShuffleCell} records
   * @param retired entries its record listed that are gone now
   */
  public record Change(
      List<IndexEntries.Entry> made, KeyReject rejected, List<byte[]> records, int retired) {}

  /**
   * @param sourceKey the source row
   * @param now what the row holds now: its window's cells when they suffice ({@link
   *     IndexEntries#windowSuffices}), else a read of it; empty when the row is gone
   * @param recorded the row's record
   * @param stamp the run's time
   */
  public Change of(byte[] sourceKey, Result now, RowRecord.Versions recorded, long stamp) {
    return of(sourceKey, now, recorded, stamp, false);
  }

  /**
   * One row's change, its record written even when its keys did not change ({@code restampRecord}),
   * so the record's time is the row's last stamp: a writer without one clock for all its runs (the
   * stream's endpoints, one per region server) stamps the row's next change later than that.
   */
  public Change of(
      byte[] sourceKey,
      Result now,
      RowRecord.Versions recorded,
      long stamp,
      boolean restampRecord) {
    List<IndexEntries.Entry> made = List.of();
    KeyReject rejected = null;
    if (!now.isEmpty()) {
      try {
        made = entries.entries(now);
      } catch (KeyReject r) {
        rejected = r;
      }
    }
    List<byte[]> keys = new ArrayList<>(made.size());
    for (IndexEntries.Entry e : made) {
      keys.add(e.key());
    }
    TreeSet<byte[]> kept = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    kept.addAll(keys);
    TreeSet<byte[]> latest = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    latest.addAll(recorded.latest());
    List<byte[]> records = new ArrayList<>();
    int retired = 0;
    // Every version's keys: those only the older one lists were retired by a run that may have
    // failed before its markers were all stored.
    for (byte[] k : recorded.known()) {
      if (!kept.contains(k)) {
        records.add(entries.hideEntry(k, stamp));
        if (latest.contains(k)) {
          retired++;
        }
      }
    }
    boolean lacksCovered = !made.isEmpty() && !entries.missingCovered(now).isEmpty();
    for (IndexEntries.Entry e : made) {
      if (lacksCovered) {
        records.add(entries.hideEntry(e.key(), stamp - 1));
      }
      records.add(entries.record(e, now, stamp));
    }
    if ((recorded.exists() || !made.isEmpty())
        && (restampRecord || !RowRecord.same(recorded.latest(), keys))) {
      records.add(entries.rowRecord(sourceKey, made, stamp));
    }
    return new Change(made, rejected, records, retired);
  }
}
