package io.rekey.rekey;

import io.rekey.keys.KeyMapping;
import io.rekey.options.InvalidOptionException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The family settings of an existing target that a migration relies on, compared with the source's
 * before any work: VERSIONS, MIN_VERSIONS, TTL and KEEP_DELETED_CELLS decide what a read returns,
 * so a target that differs can never read as its source (a repair would rewrite the same cells on
 * every run); and where a row's key depends on a column, {@code NEW_VERSION_BEHAVIOR}, without
 * which the markers that retire a moved row's old key hide its cells for good when it moves back. A
 * target {@code rekey} creates has them; one made by hand, or by an older version, may not.
 */
final class TargetFamilies {
  private TargetFamilies() {}

  /**
   * The families the target is created with: the source's, and where rows can move between keys (a
   * key bound to a column), with HBase's {@code NEW_VERSION_BEHAVIOR}. A sync retires a moved row's
   * old key with version delete markers; under HBase's default behavior such a marker hides the
   * same versions forever (until a major compaction drops both), so a row that moves back would
   * lose its cells. Under the new behavior a marker hides only what was written before it.
   */
  static TableDescriptor forNewTarget(TableDescriptor source, KeyMapping mapping) {
    if (!WindowMapping.keyUsesColumns(mapping)) {
      return source;
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(source);
    for (ColumnFamilyDescriptor f : source.getColumnFamilies()) {
      b.modifyColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(f).setNewVersionBehavior(true).build());
    }
    return b.build();
  }

  /**
   * Refuses, in one line naming the target and the HBase shell's {@code alter} that fixes it, a
   * target whose families differ from the source's where it matters. The families must be the same
   * ones (checked before this).
   */
  static void require(TableDescriptor source, TableDescriptor target, KeyMapping mapping) {
    List<String> alters = alters(source, target, WindowMapping.keyUsesColumns(mapping));
    if (alters.isEmpty()) {
      return;
    }
    throw InvalidOptionException.of(
        RekeyOptions.TARGET.name(),
        target.getTableName().getNameAsString(),
        "has family settings a migration from "
            + source.getTableName().getNameAsString()
            + " cannot work with (a read of the target would not return what the source returns,"
            + " or a row that moves away and back would lose its cells): alter it first, "
            + String.join("; ", alters));
  }

  /** The HBase shell {@code alter} of each family that differs, in family order. */
  static List<String> alters(
      TableDescriptor source, TableDescriptor target, boolean keyUsesColumns) {
    List<String> out = new ArrayList<>();
    for (ColumnFamilyDescriptor s : source.getColumnFamilies()) {
      ColumnFamilyDescriptor t = target.getColumnFamily(s.getName());
      if (t == null) {
        continue;
      }
      List<String> fix = new ArrayList<>();
      if (s.getMaxVersions() != t.getMaxVersions()) {
        fix.add("VERSIONS => " + s.getMaxVersions());
      }
      if (s.getMinVersions() != t.getMinVersions()) {
        fix.add("MIN_VERSIONS => " + s.getMinVersions());
      }
      if (s.getTimeToLive() != t.getTimeToLive()) {
        fix.add("TTL => " + s.getTimeToLive());
      }
      if (s.getKeepDeletedCells() != t.getKeepDeletedCells()) {
        fix.add("KEEP_DELETED_CELLS => '" + s.getKeepDeletedCells() + "'");
      }
      if (keyUsesColumns && !t.isNewVersionBehavior()) {
        fix.add("NEW_VERSION_BEHAVIOR => 'true'");
      }
      if (!fix.isEmpty()) {
        out.add(
            "alter '"
                + target.getTableName().getNameAsString()
                + "', {NAME => '"
                + s.getNameAsString()
                + "', "
                + String.join(", ", fix)
                + "}");
      }
    }
    return out;
  }
}
