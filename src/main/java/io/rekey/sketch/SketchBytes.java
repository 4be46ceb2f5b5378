package io.rekey.sketch;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/** Sketches travel in Java serialization as their own compact byte format, length first. */
public final class SketchBytes {
  private SketchBytes() {}

  public static void write(ObjectOutputStream out, byte[] sketch) throws IOException {
    out.writeInt(sketch.length);
    out.write(sketch);
  }

  public static byte[] read(ObjectInputStream in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return bytes;
  }
}
