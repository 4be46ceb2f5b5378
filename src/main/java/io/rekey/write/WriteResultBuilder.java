package io.rekey.write;

import java.util.List;
import java.util.Map;

/**
 * The parts every result of a job that writes through the engine names alike — cells and bytes
 * written, files, the stored-cell proof, the first rejects, the cluster's pressure and the stages'
 * wall times — for the results' builders to extend, so each says only what is its own.
 *
 * @param <B> the result's own builder, which the setters return
 */
public abstract class WriteResultBuilder<B extends WriteResultBuilder<B>> {
  protected long cellsWritten;
  protected long bytesWritten;
  protected int files;
  protected StoredCells stored;
  protected List<String> rejectExamples = List.of();
  protected Pressure pressure = Pressure.NONE;
  protected Map<String, Double> stageSeconds = Map.of();

  protected WriteResultBuilder() {}

  /** This builder, as its own type. */
  protected abstract B self();

  public B cellsWritten(long cellsWritten) {
    this.cellsWritten = cellsWritten;
    return self();
  }

  public B bytesWritten(long bytesWritten) {
    this.bytesWritten = bytesWritten;
    return self();
  }

  public B files(int files) {
    this.files = files;
    return self();
  }

  public B stored(StoredCells stored) {
    this.stored = stored;
    return self();
  }

  public B rejectExamples(List<String> rejectExamples) {
    this.rejectExamples = rejectExamples;
    return self();
  }

  public B pressure(Pressure pressure) {
    this.pressure = pressure;
    return self();
  }

  public B stageSeconds(Map<String, Double> stageSeconds) {
    this.stageSeconds = stageSeconds;
    return self();
  }
}
