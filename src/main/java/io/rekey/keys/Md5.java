package io.rekey.keys;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** One MD5 digest per thread, reset for each use: key hashes and cell digests share it. */
public final class Md5 {
  private static final ThreadLocal<MessageDigest> DIGEST =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("the JDK has no MD5", e);
            }
          });

  private Md5() {}

  /** This thread's digest, reset and ready for {@code update}. */
  public static MessageDigest fresh() {
    MessageDigest md = DIGEST.get();
    md.reset();
    return md;
  }
}
