package io.rekey.audit;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/** Sketches travel in Java serialization as their own compact byte format, length first. */
final class SketchBytes {
  private SketchBytes() {}

  static void write(ObjectOutputStream out, byte[] sketch) throws IOException {
    out.writeInt(sketch.length);
    out.write(sketch);
  }

  static byte[] read(ObjectInputStream in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return bytes;
  }
}
