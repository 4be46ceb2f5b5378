package io.rekey.audit;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Byte-array streams without the locks of {@link java.io.ByteArrayOutputStream} and {@link
 * java.io.ByteArrayInputStream}: a data stream writes a sample item as a dozen small calls, and an
 * uncontended lock on each was a visible share of serializing a task's profile.
 */
final class UnsyncedBytes {
  private UnsyncedBytes() {}

  /** A growable output buffer. */
  static final class Out extends OutputStream {
    private byte[] buf;
    private int count;

    Out(int capacity) {
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

    int size() {
      return count;
    }

    void writeTo(OutputStream out) throws java.io.IOException {
      out.write(buf, 0, count);
    }
  }

  /** An input over a byte array. */
  static final class In extends InputStream {
    private final byte[] buf;
    private int pos;

    In(byte[] buf) {
      this.buf = buf;
    }

    @Override
    public int read() {
      return pos < buf.length ? buf[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= buf.length) {
        return -1;
      }
      int n = Math.min(len, buf.length - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
