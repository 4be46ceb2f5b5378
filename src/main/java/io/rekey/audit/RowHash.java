package io.rekey.audit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The hashes the profile samples rows and cells by. */
final class RowHash {
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private RowHash() {}

  /** Murmur3's 64-bit finalizer: spreads a combined value over all bits. */
  static long mix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  /**
   * A row's sampling hash, over 64 bits: the key read eight bytes at a time, each word multiplied
   * into the state (Murmur3's 64-bit constants), then Murmur3's finalizer. It is asked for every
   * row, and Murmur3's 32-bit pass over four bytes at a time was a tenth of the per-row work. Only
   * sampling uses it: a change picks other rows, it breaks no stored format.
   */
  static long of(byte[] key) {
    long h = 0x9E3779B97F4A7C15L ^ key.length;
    int i = 0;
    for (; i + Long.BYTES <= key.length; i += Long.BYTES) {
      h =
          Long.rotateLeft(h ^ (long) WORDS.get(key, i) * 0x87c37b91114253d5L, 31)
              * 0x4cf5ad432745937fL;
    }
    long tail = 0;
    for (int shift = 0; i < key.length; i++, shift += 8) {
      tail |= (key[i] & 0xffL) << shift;
    }
    return mix64(h ^ tail * 0x87c37b91114253d5L);
  }
}
