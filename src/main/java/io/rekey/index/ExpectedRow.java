package io.rekey.index;

import java.util.ArrayList;
import java.util.List;
import scala.Tuple2;

/** What a source row should give the index: its entries, its record, its newest cell's time. */
// A class, not a record: Spark's Kryo cannot set a record's fields.
final class ExpectedRow implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final ArrayList<Tuple2<String, ScrutinyEntry>> entries;
  private final String record;
  private final long newest;

  ExpectedRow(ArrayList<Tuple2<String, ScrutinyEntry>> entries, String record, long newest) {
    this.entries = entries;
    this.record = record;
    this.newest = newest;
  }

  List<Tuple2<String, ScrutinyEntry>> entries() {
    return entries;
  }

  String record() {
    return record;
  }

  long newest() {
    return newest;
  }
}
