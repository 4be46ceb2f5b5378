package io.rekey.sketch;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Byte-array streams without the locks of {@link java.io.ByteArrayOutputStream} and {@link
 * java.io.ByteArrayInputStream}: a data stream writes a sample item as a dozen small calls, and an
 * uncontended lock on each was a visible share of serializing a task's profile.
 *
 * <p>Kept rather than commons-io's {@code UnsynchronizedByteArray*Stream} because it measured
 * faster at what {@link BottomK} does with it (ByteStreamsBenchmark, {@code jobs/bench-micro.sh}, 2
 * forks × 5 s, 2026-12-02): encoding a sampled item and handing its bytes to the arena took 48 ns
 * here, 102–105 ns with commons-io (its buffer is chunked and has no array to lend, so each item is
 * copied out) and 108 ns with the JDK's; decoding one took 73 ns here, 96 ns with commons-io.
 */
public final class UnsyncedBytes {
  private UnsyncedBytes() {}

  /** A growable output buffer. */
  public static final class Out extends OutputStream {
    private byte[] buf;
    private int count;

    public Out(int capacity) {
      buf = new byte[Math.max(16, capacity)];
    }

    @Override
    public void write(int b) {
      ensure(1);
      buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, count, len);
      count += len;
    }

    private void ensure(int more) {
      if (count + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
      }
    }

    public int size() {
      return count;
    }

    /** Empties the buffer, keeping its array. */
    void reset() {
      count = 0;
    }

    /** The backing array: its first {@link #size} bytes are what was written. */
    public byte[] array() {
      return buf;
    }
  }

  /** An input over part of a byte array. */
  static final class In extends InputStream {
    private final byte[] buf;
    private final int end;
    private int pos;

    /** An input over {@code length} bytes of {@code buf} from {@code offset}. */
    In(byte[] buf, int offset, int length) {
      this.buf = buf;
      this.pos = offset;
      this.end = offset + length;
    }

    @Override
    public int read() {
      return pos < end ? buf[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= end) {
        return -1;
      }
      int n = Math.min(len, end - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
