package io.rekey.keys;

import java.io.Serializable;

/**
 * A field whose value comes from a column of the row rather than from the key: {@code sender =
 * m:sender} in a source spec. The newest version of the cell is used.
 *
 * @param field the field it defines
 * @param family the column family
 * @param qualifier the column qualifier
 */
public record ColumnBinding(FieldSpec field, String family, String qualifier, int column)
    implements Serializable {
  public String describe() {
    return field.describe() + " = " + family + ":" + qualifier;
  }
}
