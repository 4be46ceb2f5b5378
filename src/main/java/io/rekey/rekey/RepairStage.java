package io.rekey.rekey;

import io.rekey.common.Pending;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
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
  private final int piece;
  private final ShippedConfiguration conf;

  /**
   * @param below read cells stamped below this ({@code Long.MAX_VALUE} for all)
   * @param piece the most cells of a row held at once: a wider row is fixed a part at a time
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
      int piece,
      ShippedConfiguration conf) {
    this.source = source;
    this.target = target;
    this.mapping = mapping;
    this.sourceCounted = sourceCounted;
    this.targetCounted = targetCounted;
    this.newVersionBehavior = new HashSet<>(newVersionBehavior);
    this.below = below;
    this.piece = piece;
    this.conf = conf;
  }

  /**
   * One differing row and its fix, the cells as {@link ShuffleCell} records ready for the Put
   * writer.
   *
   * @param records the Puts and version deletes to write, under the target key
   * @param example the first cell that cannot be restored, as text, or null
   * @param continuation a later part of a wide row's fix: the row was counted with its first part
   */
  record Fixed(
      byte[] key,
      RowDifferences.Kind kind,
      List<byte[]> records,
      long puts,
      long deletes,
      long masked,
      String example,
      boolean continuation)
      implements Serializable {
    static Fixed of(byte[] key, RowDifferences.Kind kind, RowFix fix, boolean continuation) {
      List<Cell> cells = new ArrayList<>(fix.puts());
      cells.addAll(fix.deletes());
      cells.sort(CellComparator.getInstance());
      List<byte[]> records =
          cells.isEmpty() ? List.of() : ShuffleCell.records(key, cells.toArray(new Cell[0]));
      String example =
          fix.masked().isEmpty()
              ? null
              : Bytes.toStringBinary(key) + " " + RowFix.version(fix.masked().get(0));
      return new Fixed(
          key,
          kind,
          records,
          fix.puts().size(),
          fix.deletes().size(),
          fix.masked().size(),
          example,
          continuation);
    }
  }

  /**
   * The partition's fixes, worked out a batch at a time as they are consumed, so a partition with
   * many differing rows holds one batch of them, and a wide row's fix a part at a time.
   */
  @Override
  public Iterator<Fixed> call(Iterator<RowDifferences.Differing> rows) {
    return new Iterator<>() {
      private final Pending<Fixed> pending = new Pending<>();
      private Table from;
      private Table to;

      @Override
      public boolean hasNext() {
        while (!pending.hasNext()) {
          if (!rows.hasNext()) {
            close();
            return false;
          }
          List<RowDifferences.Differing> batch = new ArrayList<>(RowReads.BATCH);
          while (batch.size() < RowReads.BATCH && rows.hasNext()) {
            batch.add(rows.next());
          }
          try {
            open();
            fix(batch, from, to, pending);
          } catch (IOException e) {
            throw new UncheckedIOException(
                "cannot read the differing rows of " + source + " and " + target, e);
          }
        }
        return true;
      }

      @Override
      public Fixed next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return pending.next();
      }

      private void open() throws IOException {
        if (from == null) {
          Connection c = ExecutorConnections.get(conf);
          from = c.getTable(TableName.valueOf(source));
          to = c.getTable(TableName.valueOf(target));
        }
      }

      private void close() {
        try {
          if (from != null) {
            from.close();
            to.close();
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot close " + source + " or " + target, e);
        } finally {
          from = null;
          to = null;
        }
      }
    };
  }

  private void fix(List<RowDifferences.Differing> batch, Table from, Table to, Pending<Fixed> out)
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
    RowReads.Rows sourceRows = RowReads.read(from, sourceKeys, sourceCounted.raw(), below, piece);
    RowReads.Rows shownRows = RowReads.read(to, targetKeys, targetCounted.raw(), below, piece);
    RowReads.Rows rawRows =
        targetCounted.raw() ? shownRows : RowReads.read(to, targetKeys, true, below, piece);
    for (RowDifferences.Differing d : batch) {
      byte[] key = d.targetKey();
      if (changedTarget.contains(key)
          || d.sourceKeys().stream().anyMatch(changedSource::contains)) {
        out.add(Fixed.of(key, d.kind(), RowFix.NONE, false));
        continue;
      }
      if (shownRows.wide().contains(key)
          || rawRows.wide().contains(key)
          || d.sourceKeys().stream().anyMatch(sourceRows.wide()::contains)) {
        out.later(wide(d, sourceRows, from, to));
        continue;
      }
      List<Cell[]> sources = new ArrayList<>();
      for (byte[] sk : d.sourceKeys()) {
        Cell[] cells = sourceRows.get(sk);
        if (cells.length > 0 && maps(sk, cells, key)) {
          sources.add(cells);
        }
      }
      RowFix fix =
          RowFix.ofReads(
              key,
              sources,
              sourceCounted,
              shownRows.get(key),
              rawRows.get(key),
              targetCounted,
              newVersionBehavior);
      out.add(Fixed.of(key, d.kind(), fix, false));
    }
  }

  /**
   * The fix of a row too wide to hold (or with a source row too wide), in parts: the rows are read
   * again a piece at a time, from when the first part is taken. The first part counts the row.
   */
  private Iterator<Fixed> wide(
      RowDifferences.Differing d, RowReads.Rows sourceRows, Table from, Table to) {
    byte[] key = d.targetKey();
    return new Iterator<>() {
      private Iterator<RowFix> parts;
      private boolean first = true;

      @Override
      public boolean hasNext() {
        return first || parts().hasNext();
      }

      @Override
      public Fixed next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Fixed f = Fixed.of(key, d.kind(), parts().hasNext() ? parts().next() : RowFix.NONE, !first);
        first = false;
        return f;
      }

      private Iterator<RowFix> parts() {
        if (parts == null) {
          try {
            parts = fixInParts(d, sourceRows, from, to);
          } catch (IOException e) {
            throw new UncheckedIOException(
                "cannot read the wide row " + Bytes.toStringBinary(key) + " of " + target, e);
          }
        }
        return parts;
      }
    };
  }

  private Iterator<RowFix> fixInParts(
      RowDifferences.Differing d, RowReads.Rows sourceRows, Table from, Table to)
      throws IOException {
    byte[] key = d.targetKey();
    List<Iterator<Cell>> sources = new ArrayList<>();
    for (byte[] sk : d.sourceKeys()) {
      boolean wide = sourceRows.wide().contains(sk);
      Cell[] cells =
          wide
              ? RowReads.kept(
                  from, sk, sourceCounted.raw(), below, piece, CellVisibility.keyCells(mapping))
              : sourceRows.get(sk);
      if ((wide || cells.length > 0) && maps(sk, cells, key)) {
        sources.add(RowReads.cells(from, sk, sourceCounted.raw(), below, piece));
      }
    }
    Iterator<Cell> raw = RowReads.cells(to, key, true, below, piece);
    Iterator<Cell> shown =
        targetCounted.raw() ? null : RowReads.cells(to, key, false, below, piece);
    return new WideRowFix(
        key, sources, sourceCounted, shown, raw, targetCounted, newVersionBehavior, piece);
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
