package io.rekey.keys;

/**
 * MurmurHash3 x86 32-bit (Austin Appleby's reference algorithm), the hash behind {@code salt(...)}
 * and {@code hash(..., algo=murmur3)}. A salt is a stored format: this function and its seed may
 * never change, and golden tests pin its output.
 */
public final class Murmur3 {
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private Murmur3() {}

  /** The 32-bit hash of {@code data} with {@code seed}. */
  @SuppressWarnings(
      "fallthrough") // the reference algorithm mixes the tail bytes by falling through
  public static int hash32(byte[] data, int seed) {
    int h = seed;
    int len = data.length;
    int blocks = len / 4;
    for (int i = 0; i < blocks; i++) {
      int off = i * 4;
      int k =
          (data[off] & 0xff)
              | (data[off + 1] & 0xff) << 8
              | (data[off + 2] & 0xff) << 16
              | (data[off + 3] & 0xff) << 24;
      k *= C1;
      k = Integer.rotateLeft(k, 15);
      k *= C2;
      h ^= k;
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    int tail = blocks * 4;
    int k = 0;
    switch (len & 3) {
      case 3:
        k ^= (data[tail + 2] & 0xff) << 16;
        // fall through
      case 2:
        k ^= (data[tail + 1] & 0xff) << 8;
        // fall through
      case 1:
        k ^= data[tail] & 0xff;
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        k *= C2;
        h ^= k;
        break;
      default:
        break;
    }
    h ^= len;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
