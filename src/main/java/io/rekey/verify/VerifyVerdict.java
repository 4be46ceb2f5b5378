package io.rekey.verify;

import java.util.Optional;

/**
 * Whether a comparison proves the target: every region matches, no target key holds merged source
 * rows unless merging was allowed, and the rows the mapping cannot place are exactly those the
 * operator acknowledged. What {@code verify} exits on, and what its history line records.
 */
public final class VerifyVerdict {
  private VerifyVerdict() {}

  /** Why {@code result} does not prove the target, in one line; empty when it does. */
  public static Optional<String> finding(VerifyResult result, VerifyOptions options) {
    if (!result.matches()) {
      return Optional.of(
          "the target differs from the source in "
              + result.differingRegions()
              + " region(s), listed above");
    }
    String merged = result.mergedRefusal(options.allowMerge());
    if (merged != null) {
      return Optional.of(merged);
    }
    if (!result.unmapped().acknowledged(options.acceptUnmapped())) {
      return Optional.of(
          "every mapped row matches, but " + result.unmapped().refusal(options.acceptUnmapped()));
    }
    return Optional.empty();
  }
}
