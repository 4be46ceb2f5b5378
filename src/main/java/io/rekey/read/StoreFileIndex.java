package io.rekey.read;

import java.io.DataInputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.ByteBuffInputStream;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A store file's block index, read without reading its data: the one place hbase-rekey uses HBase's
 * private HFile index API (README, "HBase APIs"). HBase has no public way to ask where the keys of
 * a store file fall by bytes, and the sub-splitting reader and the row sampler both need it.
 *
 * <p>The root level is read through HBase's uncached block reader, whose interface is public in
 * HBase 2.5 and package-private from 2.6 on (its methods stay public): it is reached by reflection,
 * a few calls per file, which works the same on every HBase of the support matrix. (The index
 * reader HBase keeps would be simpler, but from 2.6 on it may hold the root encoded, without the
 * offsets.) The levels below the root are read as blocks through {@link HFile.Reader#readBlock} and
 * parsed as HBase writes them.
 */
final class StoreFileIndex {
  private StoreFileIndex() {}

  /** An index entry: the block it points to and that block's first key (or a shorter one). */
  record Entry(long offset, int size, Cell key) {}

  /**
   * The root entries of the file's data block index, in key order: the first block of the file's
   * load-on-open section, read as HBase reads it when it opens the file (offset, on-disk size and
   * key per entry).
   */
  static List<Entry> root(HFile.Reader reader) throws IOException {
    FixedFileTrailer trailer = reader.getTrailer();
    // HBase's uncached block reader and its block iterator: package-private from 2.6 on.
    Object blocks = invoke(method(reader, "getUncachedBlockReader"), reader);
    Object range =
        invoke(
            method(blocks, "blockRange", long.class, long.class),
            blocks,
            trailer.getLoadOnOpenDataOffset(),
            reader.length() - trailer.getTrailerSize());
    HFileBlock block =
        (HFileBlock)
            invoke(
                method(range, "nextBlockWithBlockType", BlockType.class),
                range,
                BlockType.ROOT_INDEX);
    List<Entry> out = new ArrayList<>();
    try (DataInputStream in =
        new DataInputStream(new ByteBuffInputStream(block.getBufferWithoutHeader()))) {
      for (int i = 0; i < trailer.getDataIndexCount(); i++) {
        long offset = in.readLong();
        int size = in.readInt();
        byte[] key = Bytes.readByteArray(in);
        out.add(new Entry(offset, size, new KeyValue.KeyOnlyKeyValue(key, 0, key.length)));
      }
    } finally {
      block.release();
    }
    return out;
  }

  /** The entries of the non-root index block ({@code type}: leaf or intermediate) at {@code at}. */
  static List<Entry> below(HFile.Reader reader, Entry at, BlockType type) throws IOException {
    HFileBlock block =
        reader.readBlock(at.offset(), at.size(), false, true, false, false, type, null);
    try {
      return nonRootEntries(block.getBufferWithoutHeader());
    } finally {
      block.release();
    }
  }

  /**
   * The entries of a non-root index block: their count, a secondary index of their offsets ({@code
   * count + 1} ints), then each entry as block offset (long), on-disk size (int) and key.
   */
  static List<Entry> nonRootEntries(ByteBuff buffer) {
    int count = buffer.getInt(0);
    int entriesStart = Bytes.SIZEOF_INT * (count + 2);
    List<Entry> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int from = buffer.getInt(Bytes.SIZEOF_INT * (i + 1));
      int to = buffer.getInt(Bytes.SIZEOF_INT * (i + 2));
      int at = entriesStart + from;
      int keyAt = at + Bytes.SIZEOF_LONG + Bytes.SIZEOF_INT;
      byte[] key = buffer.toBytes(keyAt, to - from - Bytes.SIZEOF_LONG - Bytes.SIZEOF_INT);
      out.add(
          new Entry(
              buffer.getLong(at),
              buffer.getInt(at + Bytes.SIZEOF_LONG),
              new KeyValue.KeyOnlyKeyValue(key, 0, key.length)));
    }
    return out;
  }

  private static Method method(Object target, String name, Class<?>... parameters)
      throws IOException {
    try {
      Method m = target.getClass().getMethod(name, parameters);
      m.setAccessible(true);
      return m;
    } catch (NoSuchMethodException | RuntimeException e) {
      throw new IOException(
          "this HBase's store-file index reader ("
              + target.getClass().getName()
              + ") has no "
              + name
              + ": hbase-rekey supports HBase 2.5 and 2.6 (README, Support matrix)",
          e);
    }
  }

  private static Object invoke(Method m, Object target, Object... args) throws IOException {
    try {
      return m.invoke(target, args);
    } catch (IllegalAccessException e) {
      throw new IOException("cannot read a store file's index: " + e.getMessage(), e);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException("cannot read a store file's index: " + cause, cause);
    }
  }
}
