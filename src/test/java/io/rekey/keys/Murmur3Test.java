package io.rekey.keys;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Murmur3Test {
  static int h(String s) {
    return Murmur3.hash32(s.getBytes(StandardCharsets.UTF_8), 0);
  }

  @Test
  void referenceVectors() {
    // Published MurmurHash3_x86_32 outputs (seed 0): a salt byte depends on them forever.
    assertThat(h("")).isEqualTo(0);
    assertThat(h("hello")).isEqualTo(0x248bfa47);
    assertThat(h("The quick brown fox jumps over the lazy dog")).isEqualTo(0x2e4ff723);
    assertThat(Murmur3.hash32(new byte[0], 1)).isEqualTo(0x514e28b7);
  }

  @Test
  void agreesWithGuavaOnEveryTailLength() {
    SplittableRandom random = new SplittableRandom(1);
    for (int len = 0; len < 64; len++) {
      for (int round = 0; round < 20; round++) {
        byte[] data = new byte[len];
        random.nextBytes(data);
        assertThat(Murmur3.hash32(data, 0))
            .as("length %d", len)
            .isEqualTo(Hashing.murmur3_32().hashBytes(data).asInt());
      }
    }
  }
}
