package io.rekey.schema;

import java.util.List;

/**
 * A table's families and regions as HBase reports them: the input of the design checks.
 *
 * @param table the table's name
 * @param families its column families and their settings
 * @param regions its regions in key order
 */
public record TableDescription(
    String table, List<FamilyDescription> families, List<RegionDescription> regions) {
  public TableDescription {
    families = List.copyOf(families);
    regions = List.copyOf(regions);
  }
}
