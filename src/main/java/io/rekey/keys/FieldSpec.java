package io.rekey.keys;

import java.io.Serializable;

/**
 * A field as a spec declares it: {@code ts:long(13)} is name {@code ts}, type LONG, width 13.
 *
 * @param width for BYTES the byte count; for numbers in text keys the zero-padded digit count (0:
 *     plain decimal); otherwise 0
 */
public record FieldSpec(String name, FieldType type, int width) implements Serializable {
  /** How the spec writes it. */
  public String describe() {
    if (type == FieldType.STR) {
      return name;
    }
    return name + ":" + type.specName() + (width > 0 ? "(" + width + ")" : "");
  }
}
