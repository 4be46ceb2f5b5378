package io.rekey.rekey;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rekey.common.Json;
import io.rekey.run.RunFiles;
import io.rekey.write.StoredCells;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a run has done, kept in its directory so a rerun after a failure knows where to go on: a run
 * whose HFiles are all written resumes with the load; a loaded run is not loaded again; any other
 * run starts clean. Rewritten (atomically) after every step.
 *
 * @param fingerprint every option that changes what is written or loaded: a manifest of another
 *     job, or of the same job with other such options, is not resumed
 * @param runId the run's id, with which its HFiles are tagged (see {@link io.rekey.write.Ledger})
 * @param state how far the run got
 * @param snapshot the snapshot the run read, kept until the run completes, or null
 * @param createdTarget whether this run created the target table
 * @param map the map stage's counts, once written
 * @param cellsWritten cells in the HFiles, once written
 * @param bytesWritten bytes in the HFiles, once written
 * @param files how many HFiles were committed (the ledger lists them), once written
 * @param stored the stored-cell check, once loaded
 * @param readFromMillis when the run's read began (just before its snapshot): a sync catches up
 *     from there, less the safety lag
 */
public record RunManifest(
    String fingerprint,
    String runId,
    State state,
    String snapshot,
    boolean createdTarget,
    MapStats map,
    long cellsWritten,
    long bytesWritten,
    int files,
    StoredCells stored,
    long readFromMillis,
    long updatedMillis) {
  /** How far a run got. */
  public enum State {
    /** Planned; files may be partial. A rerun starts clean. */
    STARTED,
    /** Every HFile written and counted; nothing loaded. A rerun loads them. */
    WRITTEN,
    /** Stopped before loading (too many rejects, collisions). A rerun starts clean. */
    REFUSED,
    /** Loaded into the target. A rerun does not load again. */
    LOADED
  }

  RunManifest with(State s) {
    return with(s, map, cellsWritten, bytesWritten, files, stored);
  }

  RunManifest written(MapStats stats, long cells, long bytes, int hfiles) {
    return with(State.WRITTEN, stats, cells, bytes, hfiles, null);
  }

  RunManifest loaded(StoredCells check) {
    return with(State.LOADED, map, cellsWritten, bytesWritten, files, check);
  }

  private RunManifest with(
      State s, MapStats m, long cells, long bytes, int hfiles, StoredCells check) {
    return new RunManifest(
        fingerprint,
        runId,
        s,
        snapshot,
        createdTarget,
        m,
        cells,
        bytes,
        hfiles,
        check,
        readFromMillis,
        System.currentTimeMillis());
  }

  /** The manifest in {@code run}, or null when there is none. */
  static RunManifest read(Configuration conf, Path run) throws IOException {
    Path file = RunFiles.manifest(run);
    FileSystem fs = file.getFileSystem(conf);
    if (!fs.exists(file)) {
      return null;
    }
    ObjectMapper mapper = Json.mapper();
    try (InputStream in = fs.open(file)) {
      return mapper.readValue(in, RunManifest.class);
    }
  }

  void write(Configuration conf, Path run) throws IOException {
    RunFiles.writeAtomically(conf, RunFiles.manifest(run), Json.toJson(this));
  }
}
