package io.rekey.sketch;

import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte strings appended into pages of 256 KiB and found again by an address ({@code page << 32 |
 * offset}). A sample of tens of thousands of items lives for a whole task: as objects it made every
 * young collection copy them again, and as one growing array it became a humongous object to G1,
 * each new one able to start a concurrent cycle. Pages are neither. {@link #reset} keeps the pages
 * for reuse, so refilling the arena allocates nothing.
 */
public final class ByteArena {
  public static final int PAGE_BYTES = 1 << 18;

  private final List<byte[]> pages = new ArrayList<>();
  // The page being filled (-1 before the first append) and the bytes used in it.
  private int page = -1;
  private byte[] current;
  private int used;

  /** Appends {@code length} bytes of {@code bytes} from {@code from}; returns their address. */
  public long append(byte[] bytes, int from, int length) {
    if (current == null || used + length > current.length) {
      nextPage(length);
    }
    System.arraycopy(bytes, from, current, used, length);
    long address = (long) page << 32 | used;
    used += length;
    return address;
  }

  private void nextPage(int length) {
    page++;
    int capacity = Math.max(PAGE_BYTES, length);
    if (page == pages.size()) {
      pages.add(new byte[capacity]);
    } else if (pages.get(page).length < capacity) {
      pages.set(page, new byte[capacity]);
    }
    current = pages.get(page);
    used = 0;
  }

  /** Forgets what was appended, keeping the pages. */
  public void reset() {
    page = -1;
    current = null;
    used = 0;
  }

  /** The page holding the bytes at {@code address}. */
  public byte[] page(long address) {
    return pages.get((int) (address >>> 32));
  }

  /** Where in its page the bytes at {@code address} start. */
  public static int offset(long address) {
    return (int) address;
  }

  /**
   * Appends {@code length} bytes at {@code address} to {@code target}; returns their new address.
   */
  public long copyTo(long address, int length, ByteArena target) {
    return target.append(page(address), offset(address), length);
  }

  public void writeTo(long address, int length, DataOutput out) throws IOException {
    out.write(page(address), offset(address), length);
  }
}
