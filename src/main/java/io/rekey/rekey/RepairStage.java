package io.rekey.rekey;

import io.rekey.hbase.ExecutorConnections;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.read.CellVisibility;
import io.rekey.read.RowReads;
import io.rekey.verify.Counted;
import io.rekey.verify.RowDifferences;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * The executor side of {@code rekey repair}: for each differing target row, reads the source rows
 * that map to it and the target row again ({@link RowReads#BATCH} rows per scan, on the executor's
 * shared connection), as of the same time as the comparison, and works out its {@link RowFix}.
 *
 * <p>The source rows are read live, not from the comparison's snapshot: a repair then never writes
 * an older state of a row than the source has, and a source row that has since moved to another key
 * is left out of this key's fix (the next sync or repair writes it under its new key).
 */
final class RepairStage
    implements FlatMapFunction<Iterator<RowDifferences.Differing>, RepairStage.Fixed> {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final String target;
  private final KeyMapping mapping;
  private final Counted sourceCounted;
  private final Counted targetCounted;
  private final HashSet<String> newVersionBehavior;
  private final long below;
  private final ShippedConfiguration conf;

  /**
   * @param below read cells stamped below this ({@code Long.MAX_VALUE} for all)
   * @param newVersionBehavior the target's families with {@code NEW_VERSION_BEHAVIOR}
   */
  RepairStage(
      String source,
      String target,
      KeyMapping mapping,
      Counted sourceCounted,
      Counted targetCounted,
      Set<String> newVersionBehavior,
      long below,
      ShippedConfiguration conf) {
    this.source = source;
    this.target = target;
    this.mapping = mapping;
    this.sourceCounted = sourceCounted;
    this.targetCounted = targetCounted;
    this.newVersionBehavior = new HashSet<>(newVersionBehavior);
    this.below = below;
    this.conf = conf;
  }

  /**
   * One differing row and its fix, the cells as {@link ShuffleCell} records ready for the Put
   * writer.
   *
   * @param records the Puts and version deletes to write, under the target key
   * @param example the first cell that cannot be restored, as text, or null
   */
  record Fixed(
      byte[] key,
      RowDifferences.Kind kind,
      List<byte[]> records,
      long puts,
      long deletes,
      long masked,
      String example)
      implements Serializable {}

  /**
   * The partition's fixes, worked out a batch at a time as they are consumed, so a partition with
   * many differing rows holds one batch of them.
   */
  @Override
  public Iterator<Fixed> call(Iterator<RowDifferences.Differing> rows) {
    return new Iterator<>() {
      private final ArrayDeque<Fixed> ready = new ArrayDeque<>();

      @Override
      public boolean hasNext() {
        if (ready.isEmpty() && rows.hasNext()) {
          List<RowDifferences.Differing> batch = new ArrayList<>(RowReads.BATCH);
          while (batch.size() < RowReads.BATCH && rows.hasNext()) {
            batch.add(rows.next());
          }
          Connection c = ExecutorConnections.get(conf);
          try (Table from = c.getTable(TableName.valueOf(source));
              Table to = c.getTable(TableName.valueOf(target))) {
            fix(batch, from, to, ready);
          } catch (IOException e) {
            throw new UncheckedIOException(
                "cannot read the differing rows of " + source + " and " + target, e);
          }
        }
        return !ready.isEmpty();
      }

      @Override
      public Fixed next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return ready.poll();
      }
    };
  }

  private void fix(
      List<RowDifferences.Differing> batch, Table from, Table to, ArrayDeque<Fixed> out)
      throws IOException {
    List<byte[]> sourceKeys = new ArrayList<>();
    List<byte[]> targetKeys = new ArrayList<>();
    for (RowDifferences.Differing d : batch) {
      sourceKeys.addAll(d.sourceKeys());
      targetKeys.add(d.targetKey());
    }
    // A row that changed at or after the time since the comparison cannot be fixed as of then:
    // writing its older cells could bring back what a later marker deleted. It is left alone.
    Set<byte[]> changedSource =
        below == Long.MAX_VALUE ? Set.of() : RowReads.changedSince(from, sourceKeys, below);
    Set<byte[]> changedTarget =
        below == Long.MAX_VALUE ? Set.of() : RowReads.changedSince(to, targetKeys, below);
    Map<byte[], Cell[]> sourceRows = RowReads.read(from, sourceKeys, sourceCounted.raw(), below);
    Map<byte[], Cell[]> shownRows = RowReads.read(to, targetKeys, targetCounted.raw(), below);
    Map<byte[], Cell[]> rawRows =
        targetCounted.raw() ? shownRows : RowReads.read(to, targetKeys, true, below);
    for (RowDifferences.Differing d : batch) {
      if (changedTarget.contains(d.targetKey())
          || d.sourceKeys().stream().anyMatch(changedSource::contains)) {
        out.add(new Fixed(d.targetKey(), d.kind(), List.of(), 0, 0, 0, null));
        continue;
      }
      List<Cell> wanted = new ArrayList<>();
      for (byte[] sk : d.sourceKeys()) {
        Cell[] cells = sourceRows.get(sk);
        if (cells != null && maps(sk, cells, d.targetKey())) {
          wanted.addAll(sourceCounted.cellsOfRow(cells));
        }
      }
      Cell[] shown = shownRows.getOrDefault(d.targetKey(), new Cell[0]);
      List<Cell> markers = new ArrayList<>();
      for (Cell m : rawRows.getOrDefault(d.targetKey(), new Cell[0])) {
        if (CellUtil.isDelete(m)) {
          markers.add(m);
        }
      }
      RowFix fix =
          RowFix.of(
              d.targetKey(), wanted, targetCounted.cellsOfRow(shown), markers, newVersionBehavior);
      List<Cell> cells = new ArrayList<>(fix.puts());
      cells.addAll(fix.deletes());
      cells.sort(org.apache.hadoop.hbase.CellComparator.getInstance());
      List<byte[]> records =
          cells.isEmpty()
              ? List.of()
              : ShuffleCell.records(d.targetKey(), cells.toArray(new Cell[0]));
      String example =
          fix.masked().isEmpty()
              ? null
              : Bytes.toStringBinary(d.targetKey()) + " " + RowFix.version(fix.masked().get(0));
      out.add(
          new Fixed(
              d.targetKey(),
              d.kind(),
              records,
              fix.puts().size(),
              fix.deletes().size(),
              fix.masked().size(),
              example));
    }
  }

  /** Whether the source row still maps to {@code key}, from the values a read returns. */
  private boolean maps(byte[] sourceKey, Cell[] cells, byte[] key) {
    try {
      Result r = Result.create(cells);
      return Arrays.equals(
          mapping.map(sourceKey, CellVisibility.columns(r, sourceCounted.raw())), key);
    } catch (KeyReject rejected) {
      return false;
    }
  }
}
