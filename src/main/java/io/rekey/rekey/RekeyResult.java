package io.rekey.rekey;

import io.rekey.common.JsonResult;
import io.rekey.verify.VerifyResult;
import io.rekey.write.Pressure;
import io.rekey.write.StoredCells;
import io.rekey.write.WriteResultBuilder;
import java.util.List;
import java.util.Map;

/**
 * What a rekey run did. The counts add up: {@code cellsRead = cellsWritten + cellsRejected +
 * cellsSkipped} (checked before anything is loaded).
 *
 * @param plan the plan the run followed: tables, key specs, read mode, snapshot, run directory,
 *     families, split points and sample keys
 * @param dryRun only the plan was made
 * @param resumed the run went on from an earlier run's files
 * @param state how far the run got ({@code LOADED} when it completed)
 * @param rowsRead source rows read
 * @param cellsRead source cells read (delete markers included)
 * @param cellsWritten cells written to HFiles under their new keys
 * @param rowsRejected source rows whose key the source layout could not read or the target layout
 *     could not build
 * @param cellsRejected the cells of the rejected rows
 * @param cellsSkipped cells left out by an explicit option; no option leaves cells out today, so 0
 *     (kept so that the counts' sum has its place when one does)
 * @param bytesWritten bytes of the HFiles written
 * @param files HFiles written
 * @param stored the cells stored for the run, counted from the target's store files, against the
 *     cells written; null when nothing was loaded
 * @param rejectsFiles the rejects files (tab-separated: reason, detail, old key, hex), or empty
 * @param rejectExamples the first rejects, for the summary
 * @param verify the comparison, or null when skipped
 * @param syncWatermark where {@code rekey sync} starts (epoch millis): the copy's read start minus
 *     the safety lag; 0 for a dry run
 * @param syncWarnings what may keep a later sync from seeing a change (delete markers the source's
 *     families purge at compactions)
 * @param pressure how far the cluster held the job's writes back (busy answers, waits for
 *     compactions); zero on an idle cluster
 * @param stageSeconds wall time per stage, in order
 * @param totalSeconds wall time of the whole run
 */
public record RekeyResult(
    RekeyPlan plan,
    boolean dryRun,
    boolean resumed,
    String state,
    long rowsRead,
    long cellsRead,
    long cellsWritten,
    long rowsRejected,
    long cellsRejected,
    long cellsSkipped,
    long bytesWritten,
    int files,
    StoredCells stored,
    String rejectsFiles,
    List<String> rejectExamples,
    VerifyResult verify,
    long syncWatermark,
    List<String> syncWarnings,
    Pressure pressure,
    Map<String, Double> stageSeconds,
    double totalSeconds)
    implements JsonResult {
  public RekeyResult {
    rejectExamples = List.copyOf(rejectExamples);
    syncWarnings = List.copyOf(syncWarnings);
    stageSeconds =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stageSeconds));
  }

  /** The result of a dry run: the plan, and nothing read, written or loaded. */
  public static RekeyResult dryRun(RekeyPlan plan, double seconds) {
    return builder().plan(plan).dryRun(true).state("PLANNED").totalSeconds(seconds).build();
  }

  /** Whether every cell read is accounted for. */
  public boolean countsAddUp() {
    return cellsRead == cellsWritten + cellsRejected + cellsSkipped;
  }

  /** A RekeyResult built by name. */
  public static Builder builder() {
    return new Builder();
  }

  /** Names each part of a {@link RekeyResult}; parts not named are zero, false, null or empty. */
  public static final class Builder extends WriteResultBuilder<Builder> {
    private RekeyPlan plan;
    private boolean dryRun;
    private boolean resumed;
    private String state;
    private long rowsRead;
    private long cellsRead;
    private long rowsRejected;
    private long cellsRejected;
    private long cellsSkipped;
    private String rejectsFiles;
    private VerifyResult verify;
    private long syncWatermark;
    private List<String> syncWarnings = List.of();
    private double totalSeconds;

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    public Builder plan(RekeyPlan plan) {
      this.plan = plan;
      return this;
    }

    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    public Builder resumed(boolean resumed) {
      this.resumed = resumed;
      return this;
    }

    public Builder state(String state) {
      this.state = state;
      return this;
    }

    public Builder rowsRead(long rowsRead) {
      this.rowsRead = rowsRead;
      return this;
    }

    public Builder cellsRead(long cellsRead) {
      this.cellsRead = cellsRead;
      return this;
    }

    public Builder rowsRejected(long rowsRejected) {
      this.rowsRejected = rowsRejected;
      return this;
    }

    public Builder cellsRejected(long cellsRejected) {
      this.cellsRejected = cellsRejected;
      return this;
    }

    public Builder cellsSkipped(long cellsSkipped) {
      this.cellsSkipped = cellsSkipped;
      return this;
    }

    public Builder rejectsFiles(String rejectsFiles) {
      this.rejectsFiles = rejectsFiles;
      return this;
    }

    public Builder verify(VerifyResult verify) {
      this.verify = verify;
      return this;
    }

    public Builder syncWatermark(long syncWatermark) {
      this.syncWatermark = syncWatermark;
      return this;
    }

    public Builder syncWarnings(List<String> syncWarnings) {
      this.syncWarnings = syncWarnings;
      return this;
    }

    public Builder totalSeconds(double totalSeconds) {
      this.totalSeconds = totalSeconds;
      return this;
    }

    public RekeyResult build() {
      return new RekeyResult(
          plan,
          dryRun,
          resumed,
          state,
          rowsRead,
          cellsRead,
          cellsWritten,
          rowsRejected,
          cellsRejected,
          cellsSkipped,
          bytesWritten,
          files,
          stored,
          rejectsFiles,
          rejectExamples,
          verify,
          syncWatermark,
          syncWarnings,
          pressure,
          stageSeconds,
          totalSeconds);
    }
  }
}
