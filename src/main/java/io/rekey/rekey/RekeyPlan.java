package io.rekey.rekey;

import io.rekey.hbase.FamilySettings;
import io.rekey.keys.Injectivity;
import io.rekey.keys.KeyText;
import java.util.List;

/**
 * What a rekey run will do, decided before any data moves; printed by {@code --dry-run}.
 *
 * @param source the table copied
 * @param target the table written
 * @param sourceKey the source key layout, as given
 * @param targetKey the target key layout, as given
 * @param injectivity whether two source keys can map to one target key, and why
 * @param collisionCheck whether the run counts target keys to catch two rows mapped to one
 * @param read {@code snapshot} or {@code live-scan}
 * @param snapshot the snapshot to take and read, or null for a live scan
 * @param runDir where the run's files go
 * @param createTarget whether the target will be created (pre-split at {@link #splitPoints})
 * @param families the target's column families and their settings (those of the source)
 * @param splitPoints the target's region boundaries (planned or existing)
 * @param tasksPerRegion writer tasks per target region
 * @param maxRejects how many rows may be rejected before the run fails
 * @param sourceRegions regions of the source (one read task each)
 * @param sampleKeys the first rows of the source and their new keys
 */
public record RekeyPlan(
    String source,
    String target,
    String sourceKey,
    String targetKey,
    Injectivity injectivity,
    boolean collisionCheck,
    String read,
    String snapshot,
    String runDir,
    boolean createTarget,
    List<FamilySettings> families,
    List<KeyText> splitPoints,
    int tasksPerRegion,
    long maxRejects,
    int sourceRegions,
    List<SampleKey> sampleKeys) {
  public RekeyPlan {
    families = List.copyOf(families);
    splitPoints = List.copyOf(splitPoints);
    sampleKeys = List.copyOf(sampleKeys);
  }

  /** Whether there were sample rows and the source key spec rejected every one of them. */
  public boolean everySampleRejected() {
    return !sampleKeys.isEmpty() && sampleKeys.stream().allMatch(k -> k.reject() != null);
  }

  /** Regions the target has or will have. */
  public int targetRegions() {
    return splitPoints.size() + 1;
  }

  /**
   * An old key of the source and what it becomes.
   *
   * @param oldKey a source row key from the sample
   * @param newKey null when the row is rejected
   * @param reject the reason and detail, or null
   */
  public record SampleKey(KeyText oldKey, KeyText newKey, String reject) {}
}
