package io.rekey.write;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What one writer task wrote: cells, bytes, files, and the collisions it found (two old rows on one
 * new row, only checked for layouts that are not injective).
 *
 * @param files the files the task attempt wrote, in its own directory (none for Puts)
 * @param collisionExamples a few {@code new row <- old row, old row}, printable
 * @param busyAnswers mutations the region servers answered busy, sent again after a back-off
 * @param backoffMillis time the task's writers waited before sending refused mutations again
 */
public record WriteStats(
    int partition,
    long cellsWritten,
    long bytesWritten,
    List<WrittenFile> files,
    long collisions,
    List<String> collisionExamples,
    long busyAnswers,
    long backoffMillis)
    implements Serializable {
  public WriteStats {
    files = List.copyOf(files);
    collisionExamples = List.copyOf(collisionExamples);
  }

  /** Nothing written. */
  public static final WriteStats NONE = new WriteStats(0, 0, 0, List.of(), 0, List.of(), 0, 0);

  /** What a writer of HFiles wrote (it never meets a busy region server). */
  public WriteStats(
      int partition,
      long cellsWritten,
      long bytesWritten,
      List<WrittenFile> files,
      long collisions,
      List<String> collisionExamples) {
    this(partition, cellsWritten, bytesWritten, files, collisions, collisionExamples, 0, 0);
  }

  /** The sum of two tasks' stats (the partition of the first). */
  public WriteStats plus(WriteStats o) {
    List<WrittenFile> f = new ArrayList<>(files);
    f.addAll(o.files);
    List<String> ex = new ArrayList<>(collisionExamples);
    for (String e : o.collisionExamples) {
      if (ex.size() < 10) {
        ex.add(e);
      }
    }
    return new WriteStats(
        partition,
        cellsWritten + o.cellsWritten,
        bytesWritten + o.bytesWritten,
        f,
        collisions + o.collisions,
        ex,
        busyAnswers + o.busyAnswers,
        backoffMillis + o.backoffMillis);
  }
}
