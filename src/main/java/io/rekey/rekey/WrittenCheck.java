package io.rekey.rekey;

import io.rekey.common.RekeyException;
import io.rekey.write.WriteStats;
import org.apache.hadoop.fs.Path;

/**
 * What must hold of a rekey's written HFiles before any is loaded: every cell read is written,
 * rejected or skipped; the rejected rows are within {@code --max-rejects}; and no new key comes
 * from two old rows unless merging was allowed. Each refusal says what was found and what to do.
 */
final class WrittenCheck {
  private WrittenCheck() {}

  /**
   * @param rejectsGlob where the rejected rows are, for the message
   * @param runDir the run's files, for the message of a count that does not add up
   * @throws RekeyException naming the first rule broken
   */
  static void beforeLoad(
      MapStats stats,
      WriteStats written,
      RekeyPlan plan,
      long maxRejects,
      String rejectsGlob,
      Path runDir) {
    if (stats.cellsRead()
        != written.cellsWritten() + stats.cellsRejected() + stats.cellsSkipped()) {
      throw new RekeyException(
          "the counts do not add up: "
              + stats.cellsRead()
              + " cells read, but "
              + written.cellsWritten()
              + " written + "
              + stats.cellsRejected()
              + " rejected + "
              + stats.cellsSkipped()
              + " skipped; nothing was loaded. This is a bug; the run's files are in "
              + runDir);
    }
    if (stats.rowsRejected() > maxRejects) {
      throw new RekeyException(
          // Worded as the refusal of a job stopped early (RekeyJob), so that one refusal reads
          // the same whether the driver saw the rejects during the pass or after it.
          stats.rowsRejected()
              + " rows could not be mapped, more than --max-rejects "
              + maxRejects
              + " ("
              + stats.cellsRejected()
              + " cells); nothing was loaded. The rows and reasons are in "
              + rejectsGlob
              + ". Fix the key specs, or raise --max-rejects to copy without them");
    }
    if (plan.collisionCheck() && written.collisions() > 0) {
      throw new RekeyException(
          written.collisions()
              + " new row key(s) come from more than one old row, because the target key is not"
              + " injective ("
              + plan.injectivity().explanation()
              + "); nothing was loaded. Examples: "
              + String.join("; ", written.collisionExamples())
              + ". Keep the lost fields in the target key, or pass --allow-merge to merge them");
    }
  }
}
