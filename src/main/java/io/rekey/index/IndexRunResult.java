package io.rekey.index;

import io.rekey.common.JsonResult;
import io.rekey.write.Pressure;
import io.rekey.write.StoredCells;
import io.rekey.write.WriteResultBuilder;
import java.util.List;
import java.util.Map;

/**
 * What an {@code index build} or {@code index update} did. Rows read = indexed + without a value +
 * rejected.
 *
 * @param kind {@code build} or {@code update}
 * @param source the table indexed
 * @param index the index table
 * @param definition the index definition, as one line
 * @param indexCreated whether this run created the index table
 * @param indexRegions how a new index table's regions were planned, or null when it existed
 * @param read how the source was read: snapshot or live scan, and what
 * @param write {@code hfiles} (bulk-loaded) or {@code puts}
 * @param windowFrom the oldest cell timestamp indexed (an update), or null for all (a build)
 * @param windowTo cells at or after this were left for the next run
 * @param watermarkBefore the watermark the run started from, or null
 * @param watermarkAfter the watermark the run left
 * @param nothingToDo the window was empty (the watermark is already at the end)
 * @param counts rows read, indexed, without a value, rejected; entries and cells; entries retired
 * @param cellsWritten cells written to the index table (entries and row records)
 * @param bytesWritten bytes of the HFiles written (0 for Puts)
 * @param files HFiles written (0 for Puts)
 * @param stored the entry cells stored, counted from the index table's store files, against the
 *     cells written; null for Puts and when nothing was loaded
 * @param rejectsGlob the rejects files, or null when no row was rejected
 * @param rejectExamples the first rejected rows, for the summary
 * @param pressure how far the cluster held the job's writes back (busy answers, waits for
 *     compactions); zero on an idle cluster
 * @param stageSeconds wall time per stage, in order
 * @param warnings source families whose delete markers a major compaction may purge before an
 *     update reads them (one line each, with the fix)
 * @param seconds wall time of the run
 */
public record IndexRunResult(
    String kind,
    String source,
    String index,
    String definition,
    boolean indexCreated,
    String indexRegions,
    String read,
    String write,
    Long windowFrom,
    long windowTo,
    Long watermarkBefore,
    long watermarkAfter,
    boolean nothingToDo,
    IndexStats counts,
    long cellsWritten,
    long bytesWritten,
    int files,
    StoredCells stored,
    String rejectsGlob,
    List<String> rejectExamples,
    Pressure pressure,
    Map<String, Double> stageSeconds,
    List<String> warnings,
    double seconds)
    implements JsonResult {
  public IndexRunResult {
    rejectExamples = List.copyOf(rejectExamples);
    warnings = List.copyOf(warnings);
    stageSeconds =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stageSeconds));
  }

  /** A IndexRunResult built by name. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Names each part of a {@link IndexRunResult}; parts not named are zero, false, null or empty.
   */
  public static final class Builder extends WriteResultBuilder<Builder> {
    private String kind;
    private String source;
    private String index;
    private String definition;
    private boolean indexCreated;
    private String indexRegions;
    private String read;
    private String write;
    private Long windowFrom;
    private long windowTo;
    private Long watermarkBefore;
    private long watermarkAfter;
    private boolean nothingToDo;
    private IndexStats counts;
    private String rejectsGlob;
    private List<String> warnings = List.of();
    private double seconds;

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    public Builder kind(String kind) {
      this.kind = kind;
      return this;
    }

    public Builder source(String source) {
      this.source = source;
      return this;
    }

    public Builder index(String index) {
      this.index = index;
      return this;
    }

    public Builder definition(String definition) {
      this.definition = definition;
      return this;
    }

    public Builder indexCreated(boolean indexCreated) {
      this.indexCreated = indexCreated;
      return this;
    }

    public Builder indexRegions(String indexRegions) {
      this.indexRegions = indexRegions;
      return this;
    }

    public Builder read(String read) {
      this.read = read;
      return this;
    }

    public Builder write(String write) {
      this.write = write;
      return this;
    }

    public Builder windowFrom(Long windowFrom) {
      this.windowFrom = windowFrom;
      return this;
    }

    public Builder windowTo(long windowTo) {
      this.windowTo = windowTo;
      return this;
    }

    public Builder watermarkBefore(Long watermarkBefore) {
      this.watermarkBefore = watermarkBefore;
      return this;
    }

    public Builder watermarkAfter(long watermarkAfter) {
      this.watermarkAfter = watermarkAfter;
      return this;
    }

    public Builder nothingToDo(boolean nothingToDo) {
      this.nothingToDo = nothingToDo;
      return this;
    }

    public Builder counts(IndexStats counts) {
      this.counts = counts;
      return this;
    }

    public Builder rejectsGlob(String rejectsGlob) {
      this.rejectsGlob = rejectsGlob;
      return this;
    }

    public Builder warnings(List<String> warnings) {
      this.warnings = warnings;
      return this;
    }

    public Builder seconds(double seconds) {
      this.seconds = seconds;
      return this;
    }

    public IndexRunResult build() {
      return new IndexRunResult(
          kind,
          source,
          index,
          definition,
          indexCreated,
          indexRegions,
          read,
          write,
          windowFrom,
          windowTo,
          watermarkBefore,
          watermarkAfter,
          nothingToDo,
          counts,
          cellsWritten,
          bytesWritten,
          files,
          stored,
          rejectsGlob,
          rejectExamples,
          pressure,
          stageSeconds,
          warnings,
          seconds);
    }
  }
}
