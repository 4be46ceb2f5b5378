package io.rekey.index;

/**
 * An entry as scrutiny compares it: its timestamp (the indexed cell's when expected, its newest
 * cell's when present), its covered values as one comparable text, the newest timestamp among its
 * source row's cells read, and whether it is a row of the index table that is no entry of this
 * index.
 */
// A class, not a record: Spark's Kryo cannot set a record's fields.
final class ScrutinyEntry implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final long ts;
  private final String covered;
  private final long sourceTs;
  private final boolean foreign;

  ScrutinyEntry(long ts, String covered, long sourceTs, boolean foreign) {
    this.ts = ts;
    this.covered = covered;
    this.sourceTs = sourceTs;
    this.foreign = foreign;
  }

  ScrutinyEntry(long ts, String covered, long sourceTs) {
    this(ts, covered, sourceTs, false);
  }

  static ScrutinyEntry foreign(long ts) {
    return new ScrutinyEntry(ts, "", 0, true);
  }

  long ts() {
    return ts;
  }

  String covered() {
    return covered;
  }

  long sourceTs() {
    return sourceTs;
  }

  boolean foreign() {
    return foreign;
  }
}
