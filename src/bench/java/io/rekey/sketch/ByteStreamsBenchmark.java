package io.rekey.sketch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.input.UnsynchronizedByteArrayInputStream;
import org.apache.commons.io.output.UnsynchronizedByteArrayOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link UnsyncedBytes} against what could replace it: commons-io's unsynchronized byte-array
 * streams, and the JDK's synchronized ones. The operation is {@link BottomK}'s: encode one sampled
 * item (a row key and a few numbers, as the audit's samples hold) through a {@link
 * DataOutputStream} into a reused buffer and hand the bytes to the arena, and decode one back.
 * commons-io's output buffer keeps its bytes in chunks with no array to lend, so its hand-over is
 * {@code toByteArray()}: a copy and an allocation per item. Run with {@code jobs/bench-micro.sh
 * ByteStreams}.
 */
// The constructors, not the builders commons-io 2.13 added: every cell's Hadoop brings commons-io,
// some older than 2.13.
@SuppressWarnings("deprecation")
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ByteStreamsBenchmark {
  private final byte[] rowKey = new byte[24];
  private final byte[] arena = new byte[1 << 16];
  private byte[] encodedItem;

  private UnsyncedBytes.Out unsynced;
  private DataOutputStream unsyncedData;
  private UnsynchronizedByteArrayOutputStream commons;
  private DataOutputStream commonsData;
  private ByteArrayOutputStream jdk;
  private DataOutputStream jdkData;

  @Setup
  public void setUp() throws IOException {
    for (int i = 0; i < rowKey.length; i++) {
      rowKey[i] = (byte) ('a' + i);
    }
    unsynced = new UnsyncedBytes.Out(256);
    unsyncedData = new DataOutputStream(unsynced);
    commons = new UnsynchronizedByteArrayOutputStream(256);
    commonsData = new DataOutputStream(commons);
    jdk = new ByteArrayOutputStream(256);
    jdkData = new DataOutputStream(jdk);
    encodeItem(jdkData);
    encodedItem = jdk.toByteArray();
  }

  private void encodeItem(DataOutputStream out) throws IOException {
    out.writeShort(rowKey.length);
    out.write(rowKey);
    out.writeLong(1_700_000_000_000L);
    out.writeInt(3);
    out.writeInt(412);
    out.writeByte(4);
    out.writeLong(77);
    out.flush();
  }

  @Benchmark
  public int encodeUnsyncedBytes() throws IOException {
    unsynced.reset();
    encodeItem(unsyncedData);
    System.arraycopy(unsynced.array(), 0, arena, 0, unsynced.size());
    return unsynced.size();
  }

  @Benchmark
  public int encodeCommonsIo() throws IOException {
    commons.reset();
    encodeItem(commonsData);
    byte[] bytes = commons.toByteArray();
    System.arraycopy(bytes, 0, arena, 0, bytes.length);
    return bytes.length;
  }

  @Benchmark
  public int encodeCommonsIoWriteTo() throws IOException {
    commons.reset();
    encodeItem(commonsData);
    int size = commons.size();
    commons.writeTo(new ArenaSlot(arena));
    return size;
  }

  @Benchmark
  public int encodeJdkSynchronized() throws IOException {
    jdk.reset();
    encodeItem(jdkData);
    byte[] bytes = jdk.toByteArray();
    System.arraycopy(bytes, 0, arena, 0, bytes.length);
    return bytes.length;
  }

  @Benchmark
  public void decodeUnsyncedBytes(Blackhole bh) throws IOException {
    decodeItem(new UnsyncedBytes.In(encodedItem, 0, encodedItem.length), bh);
  }

  @Benchmark
  public void decodeCommonsIo(Blackhole bh) throws IOException {
    decodeItem(new UnsynchronizedByteArrayInputStream(encodedItem, 0, encodedItem.length), bh);
  }

  @Benchmark
  public void decodeJdkSynchronized(Blackhole bh) throws IOException {
    decodeItem(new ByteArrayInputStream(encodedItem, 0, encodedItem.length), bh);
  }

  private static void decodeItem(InputStream in, Blackhole bh) throws IOException {
    DataInputStream data = new DataInputStream(in);
    byte[] key = new byte[data.readShort()];
    data.readFully(key);
    bh.consume(key);
    bh.consume(data.readLong());
    bh.consume(data.readInt());
    bh.consume(data.readInt());
    bh.consume(data.readByte());
    bh.consume(data.readLong());
  }

  /** The arena's slot as a stream, for commons-io's {@code writeTo}. */
  private static final class ArenaSlot extends OutputStream {
    private final byte[] target;
    private int pos;

    ArenaSlot(byte[] target) {
      this.target = target;
    }

    @Override
    public void write(int b) {
      target[pos++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, target, pos, len);
      pos += len;
    }
  }
}
