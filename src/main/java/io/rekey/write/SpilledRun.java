package io.rekey.write;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A sorted run of records spilled to a local file, and read back for the merge: each record as its
 * length and bytes, then its old row's length (-1 for none) and bytes.
 */
final class SpilledRun {
  private static final int BUFFER = 1 << 16;

  private SpilledRun() {}

  /** Writes every record {@code sorted} gives to {@code file}. */
  static void write(File file, SortedSource sorted) {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(file), BUFFER))) {
      while (sorted.advance()) {
        out.writeInt(sorted.cell.length);
        out.write(sorted.cell);
        out.writeInt(sorted.old == null ? -1 : sorted.old.length);
        if (sorted.old != null) {
          out.write(sorted.old);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot spill sorted cells to " + file, e);
    }
  }

  /** A spilled run read back in order; closes its file at the end. */
  static final class Reader extends SortedSource {
    private final File file;
    private final DataInputStream in;

    Reader(File file) {
      this.file = file;
      try {
        this.in = new DataInputStream(new BufferedInputStream(new FileInputStream(file), BUFFER));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read spilled cells from " + file, e);
      }
    }

    void close() {
      try {
        in.close();
      } catch (IOException ignored) {
        // The file is deleted next; nothing was lost.
      }
    }

    @Override
    boolean advance() {
      try {
        int length;
        try {
          length = in.readInt();
        } catch (EOFException end) {
          close();
          return false;
        }
        cell = new byte[length];
        in.readFully(cell);
        int oldLength = in.readInt();
        old = oldLength < 0 ? null : new byte[oldLength];
        if (old != null) {
          in.readFully(old);
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read spilled cells from " + file, e);
      }
    }
  }
}
