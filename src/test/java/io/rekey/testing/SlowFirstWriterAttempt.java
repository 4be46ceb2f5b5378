package io.rekey.testing;

import io.rekey.spark.Faults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Faults for a job whose executors run in JVMs of their own: the first attempt of writer partition
 * 0 stalls for {@value #STALL_MS} ms once its HFiles are complete, so Spark's speculation launches
 * a copy that finishes first, and both attempts have written whole files. Each attempt that reaches
 * that point leaves a marker file ({@code attempt-P-A}) in the markers directory, which the test
 * reads: the executors share a filesystem with it, not a JVM.
 */
public final class SlowFirstWriterAttempt implements Faults {
  static final long STALL_MS = 25_000;

  private final String markers;

  public SlowFirstWriterAttempt(Path markers) {
    this.markers = markers.toString();
  }

  @Override
  public void at(Point point, int partition, int attempt) {
    if (point != Point.WRITER_FINISHED) {
      return;
    }
    mark("attempt-" + partition + "-" + attempt);
    if (partition == 0 && attempt == 0) {
      // Killed or not, this attempt sits here with its files complete.
      long until = System.currentTimeMillis() + STALL_MS;
      while (System.currentTimeMillis() < until) {
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          mark("killed-" + partition + "-" + attempt);
        }
      }
    }
  }

  private void mark(String name) {
    Path dir = Path.of(markers);
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name), name);
    } catch (IOException e) {
      throw new IllegalStateException("cannot leave marker " + name + " in " + dir, e);
    }
  }
}
