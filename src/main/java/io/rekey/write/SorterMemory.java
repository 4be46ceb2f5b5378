package io.rekey.write;

import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * Where a {@link CellSorter}'s memory comes from: Spark's task memory manager, or a fixed budget.
 */
interface SorterMemory {
  /** Grants up to {@code bytes} (possibly fewer, possibly after spilling the sorter). */
  long acquire(long bytes);

  void release(long bytes);

  /** A fixed budget of {@code bytes}, for a sorter outside a Spark task. */
  static SorterMemory budget(long bytes) {
    long[] left = {bytes};
    return new SorterMemory() {
      @Override
      public long acquire(long wanted) {
        long granted = Math.min(wanted, left[0]);
        left[0] -= granted;
        return granted;
      }

      @Override
      public void release(long freed) {
        left[0] += freed;
      }
    };
  }

  /** Execution memory of one Spark task, given back by spilling the sorter when Spark asks. */
  final class OfTask extends MemoryConsumer implements SorterMemory {
    private CellSorter sorter;

    OfTask(TaskMemoryManager manager) {
      super(manager, MemoryMode.ON_HEAP);
    }

    /** The sorter Spark's requests for memory spill. */
    void spillsFrom(CellSorter sorter) {
      this.sorter = sorter;
    }

    @Override
    public long acquire(long bytes) {
      return acquireMemory(bytes);
    }

    @Override
    public void release(long bytes) {
      if (bytes > 0) {
        freeMemory(bytes);
      }
    }

    @Override
    public long spill(long size, MemoryConsumer trigger) {
      return sorter == null ? 0 : sorter.spillAndRelease();
    }
  }
}
