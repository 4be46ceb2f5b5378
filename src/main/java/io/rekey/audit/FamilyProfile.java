package io.rekey.audit;

import java.io.Serializable;
import org.apache.hadoop.hbase.util.Bytes;

/** One family's share. */
final class FamilyProfile implements Serializable {
  private static final long serialVersionUID = 1L;
  final byte[] nameBytes;
  final String name;
  long cells;
  long bytes;
  long deleteMarkers;
  long maxVersions;
  long oldestTs = Long.MAX_VALUE;
  final QualifierCounter qualifiers = new QualifierCounter();

  FamilyProfile(byte[] name) {
    this.nameBytes = name;
    this.name = Bytes.toStringBinary(name);
  }

  FamilyProfile merge(FamilyProfile o) {
    cells += o.cells;
    bytes += o.bytes;
    deleteMarkers += o.deleteMarkers;
    maxVersions = Math.max(maxVersions, o.maxVersions);
    oldestTs = Math.min(oldestTs, o.oldestTs);
    qualifiers.merge(o.qualifiers);
    return this;
  }
}
