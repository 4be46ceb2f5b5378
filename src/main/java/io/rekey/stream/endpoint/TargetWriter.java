package io.rekey.stream.endpoint;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Mutation;

/**
 * Writes a replication batch's mutations into the target through one buffered mutator. Where edits
 * must land in their order (a serial stream: a table with {@code NEW_VERSION_BEHAVIOR}), a target
 * row is never written twice in one flush: before a row already sent since the last flush is
 * written again, everything sent is flushed and acknowledged.
 *
 * <p>Why: a region applies the mutations of one call in mini-batches that share one MVCC number,
 * and under {@code NEW_VERSION_BEHAVIOR} a delete marker hides a cell of its own number as well as
 * older ones; so a Put that followed a delete in the source, sent with it, would read as deleted.
 * The mutator also sends a full buffer in the background while the next one fills, and two sends
 * that both hold a row could reach its region in either order. Rows written once in a flush may go
 * in any order, as under HBase's default behavior every row may.
 */
final class TargetWriter implements Closeable {
  private final BufferedMutator out;
  private final Set<ByteBuffer> sent;

  /**
   * @param inOrder whether each row's mutations must reach the target in the order they are given
   */
  TargetWriter(BufferedMutator out, boolean inOrder) {
    this.out = out;
    this.sent = inOrder ? new HashSet<>() : null;
  }

  void write(List<Mutation> mutations) throws IOException {
    if (sent == null) {
      out.mutate(mutations);
      return;
    }
    for (Mutation m : mutations) {
      ByteBuffer row = ByteBuffer.wrap(m.getRow());
      if (!sent.add(row)) {
        flush();
        sent.add(row);
      }
      out.mutate(m);
    }
  }

  /** Sends what is buffered and waits until the target has acknowledged every mutation. */
  void flush() throws IOException {
    out.flush();
    if (sent != null) {
      sent.clear();
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
