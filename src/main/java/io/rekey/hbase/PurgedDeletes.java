package io.rekey.hbase;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * Which of a source's families let a major compaction purge delete markers before an incremental
 * run (a sync, an index update) can read them: a time window reads markers from the store, so a
 * delete whose marker a compaction dropped (HBase's default: {@code KEEP_DELETED_CELLS} false and
 * {@code hbase.hstore.time.to.purge.deletes} 0) never reaches what the run keeps up to date. One
 * line per family, with the {@code alter} that keeps them.
 */
public final class PurgedDeletes {
  /** The HBase setting that keeps markers through major compactions for this many millis. */
  public static final String PURGE_DELAY = "hbase.hstore.time.to.purge.deletes";

  /** Markers kept at least this long are taken to outlive the time between two runs. */
  public static final long ENOUGH_MILLIS = 24L * 3600 * 1000;

  private PurgedDeletes() {}

  /**
   * The incremental run a warning is about.
   *
   * @param run the run, as the line names it ("sync", "index update")
   * @param destination what it keeps up to date ("the target", "the index")
   * @param remedy how to restore what was lost
   */
  public record Reader(String run, String destination, String remedy) {
    public static final Reader SYNC =
        new Reader("sync", "the target", "'rekey sync --final --repair' restores what was lost");
    public static final Reader INDEX_UPDATE =
        new Reader(
            "index update",
            "the index",
            "'index scrutiny --repair' removes the entries it leaves behind");
  }

  /**
   * @param conf the client's settings (the cluster's default for the delay, when its hbase-site.xml
   *     is given)
   * @param families the families the run reads; null for all
   * @return one line per family whose markers may be purged within {@link #ENOUGH_MILLIS}
   */
  public static List<String> warnings(
      TableDescriptor source, Configuration conf, Set<String> families, Reader reader) {
    List<String> out = new ArrayList<>();
    TableName table = source.getTableName();
    for (ColumnFamilyDescriptor f : source.getColumnFamilies()) {
      if (families != null && !families.contains(f.getNameAsString())) {
        continue;
      }
      if (f.getKeepDeletedCells() != KeepDeletedCells.FALSE) {
        continue;
      }
      String own = f.getConfigurationValue(PURGE_DELAY);
      long delay = own != null ? Long.parseLong(own.trim()) : conf.getLong(PURGE_DELAY, 0);
      if (delay >= ENOUGH_MILLIS) {
        continue;
      }
      out.add(
          String.format(
              "%s family %s purges delete markers %s after a major compaction"
                  + " (KEEP_DELETED_CELLS false, %s %d): a delete compacted away before the next"
                  + " %s never reaches %s. Keep them a day with: alter '%s', {NAME =>"
                  + " '%s', CONFIGURATION => {'%s' => '%d'}}; %s",
              table.getNameAsString(),
              f.getNameAsString(),
              delay == 0 ? "at once" : delay + " ms",
              PURGE_DELAY,
              delay,
              reader.run(),
              reader.destination(),
              table.getNameAsString(),
              f.getNameAsString(),
              PURGE_DELAY,
              ENOUGH_MILLIS,
              reader.remedy()));
    }
    return out;
  }
}
