package io.rekey.audit;

import io.rekey.sketch.BottomK;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import org.apache.hadoop.hbase.util.Bytes;

/** The items the profiler keeps in its bounded samples and top lists, and their byte codecs. */
public final class Samples {
  private Samples() {}

  /**
   * A sampled row.
   *
   * @param columns the newest values of the columns the source key binds, in binding order (null
   *     entries for missing ones)
   */
  public record Row(byte[] key, long cells, long bytes, long newestTs, byte[][] columns) {}

  /** A sampled cell: where (its row) and when (its timestamp) something was written. */
  public record Cell(byte[] key, long ts, byte[][] columns) {}

  /**
   * A row in a top list: its printable key, cells, columns and bytes.
   *
   * @param key the row key, printable
   * @param cells its cells
   * @param columns its distinct columns
   * @param bytes its bytes
   */
  public record RowSize(String key, long cells, long columns, long bytes) implements Serializable {}

  /**
   * A cell in the top list of largest values.
   *
   * @param row the row key, printable
   * @param column family:qualifier
   * @param valueBytes the value's size
   * @param ts the cell's timestamp (epoch millis)
   */
  public record BigCell(String row, String column, long valueBytes, long ts)
      implements Serializable {}

  /** A row in a top list as the tasks keep it: the key's bytes, printed only for the report. */
  record RawRowSize(byte[] key, long cells, long columns, long bytes) implements Serializable {
    RowSize printable() {
      return new RowSize(Bytes.toStringBinary(key), cells, columns, bytes);
    }
  }

  /** A cell in the top list as the tasks keep it. */
  record RawBigCell(byte[] row, String family, byte[] qualifier, long valueBytes, long ts)
      implements Serializable {
    BigCell printable() {
      return new BigCell(
          Bytes.toStringBinary(row),
          family + ":" + Bytes.toStringBinary(qualifier),
          valueBytes,
          ts);
    }
  }

  /** Sampled rows as bytes. */
  static final BottomK.Codec<Row> ROW_CODEC =
      new BottomK.Codec<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public void write(DataOutput out, Row row) throws IOException {
          writeBytes(out, row.key());
          out.writeLong(row.cells());
          out.writeLong(row.bytes());
          out.writeLong(row.newestTs());
          writeColumns(out, row.columns());
        }

        @Override
        public Row read(DataInput in) throws IOException {
          return new Row(
              readBytes(in), in.readLong(), in.readLong(), in.readLong(), readColumns(in));
        }
      };

  /** Sampled cells as bytes. */
  static final BottomK.Codec<Cell> CELL_CODEC =
      new BottomK.Codec<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public void write(DataOutput out, Cell cell) throws IOException {
          writeBytes(out, cell.key());
          out.writeLong(cell.ts());
          writeColumns(out, cell.columns());
        }

        @Override
        public Cell read(DataInput in) throws IOException {
          return new Cell(readBytes(in), in.readLong(), readColumns(in));
        }
      };

  static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
    if (bytes == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static byte[] readBytes(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    byte[] bytes = new byte[n];
    in.readFully(bytes);
    return bytes;
  }

  private static void writeColumns(DataOutput out, byte[][] columns) throws IOException {
    out.writeShort(columns.length);
    for (byte[] c : columns) {
      writeBytes(out, c);
    }
  }

  private static byte[][] readColumns(DataInput in) throws IOException {
    byte[][] columns = new byte[in.readShort()][];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = readBytes(in);
    }
    return columns;
  }
}
