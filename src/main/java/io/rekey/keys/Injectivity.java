package io.rekey.keys;

import java.util.List;

/**
 * Whether two different old keys can ever give the same new key.
 *
 * @param injective true when every field of the old key can be read back from the new key
 * @param lostFields fields of the old key the new key does not keep (only hashed or left out)
 * @param explanation one sentence for people
 */
public record Injectivity(boolean injective, List<String> lostFields, String explanation) {
  public Injectivity {
    lostFields = List.copyOf(lostFields);
  }
}
