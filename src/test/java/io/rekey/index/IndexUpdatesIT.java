package io.rekey.index;

import static io.rekey.index.IndexIT.b;
import static io.rekey.index.IndexIT.connection;
import static io.rekey.index.IndexIT.lookup;
import static io.rekey.index.IndexIT.runBuild;
import static io.rekey.index.IndexIT.runUpdate;
import static io.rekey.index.IndexIT.scrutiny;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.options.OptionValues;
import io.rekey.testing.LongTier;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.TestTables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Property-style: six index shapes over one source table, kept by {@code index update} through
 * seeded random batches of every kind of change (inserts; new values of the indexed, covered, bound
 * and unrelated columns; the same value again; deletes of a row, a family, a column and a version),
 * with a major compaction and flushes between them. After every window, each index's scrutiny is
 * clean without a repair and every lookup equals what an independent scan of the source gives.
 *
 * <p>The source family {@code m} keeps one version (HBase's default: an old value is gone once
 * flushed), {@code h} three. One shape's updates are written as HFiles and bulk-loaded, markers
 * included; the others' as Puts.
 */
@LongTier
@ExtendWith(MiniHBase.class)
class IndexUpdatesIT {
  private static final long SEED = 36L;
  private static final int ROWS = 200;
  private static final int WINDOWS = 3;
  private static final int CHANGES = 60;
  private static final String[] SENDERS = {"alice", "bob", "carol", "dave", "erin"};
  private static final String KEY = "text: user + '_' + n:long";
  private static final String THROUGH_HFILES = "column, salted key";

  private final Random random = new Random(SEED);
  private final List<String> rows = new ArrayList<>();
  private long last;

  @BeforeAll
  static void connect() {
    IndexIT.connect();
  }

  @AfterAll
  static void close() throws Exception {
    IndexIT.close();
  }

  @Test
  void everyShapeStaysExactThroughRandomChangesDeletesAndCompactions() throws Exception {
    TableName source = MiniHBase.uniqueTable("ixu");
    TestTables.create(
        source,
        ColumnFamilyDescriptorBuilder.of("m"),
        ColumnFamilyDescriptorBuilder.newBuilder(b("h")).setMaxVersions(3).build());
    List<Mutation> first = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      first.add(insert());
    }
    apply(source, first);
    Map<String, OptionValues> shapes = shapes(source);
    settle();
    for (OptionValues def : shapes.values()) {
      runBuild(runOptions(def));
    }
    check(source, shapes, "after the build");
    for (int w = 1; w <= WINDOWS; w++) {
      if (w == 2) {
        // One version kept: the old values the entries were made of are gone from the source.
        MiniHBase.util().flush(source);
        MiniHBase.util().compact(source, true);
      }
      List<Mutation> batch = new ArrayList<>();
      Set<String> tagWritten = new HashSet<>();
      for (int c = 0; c < CHANGES; c++) {
        batch.add(change(tagWritten));
        if (w == 3 && c == CHANGES / 2) {
          apply(source, batch);
          batch.clear();
          MiniHBase.util().flush(source);
        }
      }
      apply(source, batch);
      settle();
      for (Map.Entry<String, OptionValues> s : shapes.entrySet()) {
        OptionValues run = runOptions(s.getValue());
        // One shape's updates go through HFiles and a bulk load (markers too), the others as Puts.
        if (s.getKey().equals(THROUGH_HFILES)) {
          run = run.with("write", "hfiles");
        }
        IndexRunResult u = runUpdate(run);
        assertThat(u.counts().addsUp()).as(s.getKey()).isTrue();
      }
      check(source, shapes, "after window " + w);
    }
  }

  /** The shapes, by name. */
  private static Map<String, OptionValues> shapes(TableName source) {
    Map<String, OptionValues> out = new LinkedHashMap<>();
    out.put(
        "column, covered",
        def(source, "cov").with("column", "m:sender").with("covered", "m:subject"));
    out.put(
        THROUGH_HFILES,
        def(source, "salt")
            .with("column", "m:sender")
            .with("index-key", "salt(4) + value + reverse_ts(ts) + key"));
    out.put(
        "key with a bound column",
        def(source, "bound")
            .with("source-key", KEY + " ; grp = m:grp")
            .with("column", "m:subject")
            .with("index-key", "grp + value + reverse_ts(ts) + key"));
    out.put("key field", def(source, "field").with("source-key", KEY).with("field", "user"));
    out.put(
        "key field, covered",
        def(source, "fieldcov")
            .with("source-key", KEY)
            .with("field", "user")
            .with("covered", "m:sender")
            .with("covered", "h:tag"));
    out.put(
        "every version, covered",
        def(source, "versions")
            .with("column", "h:tag")
            .with("all-versions", "true")
            .with("covered", "m:subject"));
    return out;
  }

  private static OptionValues def(TableName source, String suffix) {
    return OptionValues.empty()
        .with("source", source.getNameAsString())
        .with("index-table", source.getNameAsString() + "_" + suffix)
        .with("safety-lag", "0")
        .with("allow-short-lag", "true");
  }

  /** A row without the column its key binds is rejected with the reason: not a failed run. */
  private static OptionValues runOptions(OptionValues def) {
    return def.with("max-rejects", "100000");
  }

  /** Scrutiny clean without a repair, and lookups equal to an independent scan, for each shape. */
  private void check(TableName source, Map<String, OptionValues> shapes, String when)
      throws Exception {
    Map<String, Result> now = readSource(source);
    for (Map.Entry<String, OptionValues> s : shapes.entrySet()) {
      String what = s.getKey() + " " + when;
      IndexScrutinyResult r = scrutiny(s.getValue(), false);
      assertThat(r.clean()).as(what + ": " + r).isTrue();
      assertThat(r.pending()).as(what + ": " + r).isZero();
      IndexDefinition d = IndexIT.parsed(s.getValue());
      for (Map.Entry<String, List<String>> e : expected(d, now).entrySet()) {
        IndexLookup.Result found =
            lookup(s.getValue()).lookup(e.getKey(), null, null, 100_000, false);
        assertThat(sorted(IndexIT.hitKeys(found)))
            .as(what + ": lookup of " + e.getKey())
            .isEqualTo(sorted(e.getValue()));
        assertThat(found.entries()).as(what).isEqualTo(e.getValue().size());
      }
    }
  }

  /**
   * For each value a lookup may ask for, the source rows (once per version for an index of every
   * version) that hold it now, from a plain scan of the source: the oracle, sharing no code with
   * the index.
   */
  private static Map<String, List<String>> expected(IndexDefinition d, Map<String, Result> rows) {
    Map<String, List<String>> out = new TreeMap<>();
    for (String v : lookupValues(d)) {
      out.put(v, new ArrayList<>());
    }
    for (Map.Entry<String, Result> row : rows.entrySet()) {
      Result r = row.getValue();
      if (d.field() != null) {
        out.get(row.getKey().substring(0, row.getKey().indexOf('_'))).add(row.getKey());
        continue;
      }
      byte[] f = b(d.column().family());
      byte[] q = b(d.column().qualifier());
      if (!d.key().source().columns().isEmpty() && r.getValue(b("m"), b("grp")) == null) {
        continue; // its key cannot be made: rejected
      }
      for (Cell c : r.getColumnCells(f, q)) {
        out.get(Bytes.toString(CellUtil.cloneValue(c))).add(row.getKey());
        if (!d.allVersions()) {
          break;
        }
      }
    }
    return out;
  }

  /** The values the changes write: five senders, subjects s0-s9, tags t0-t9, users u0-u4. */
  private static List<String> lookupValues(IndexDefinition d) {
    if (d.field() != null) {
      return List.of("u0", "u1", "u2", "u3", "u4");
    }
    String q = d.column().qualifier();
    if (q.equals("sender")) {
      return List.of(SENDERS);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      out.add(q.substring(0, 1) + i);
    }
    return out;
  }

  private static List<String> sorted(List<String> keys) {
    List<String> out = new ArrayList<>(keys);
    java.util.Collections.sort(out);
    return out;
  }

  /** Every row of the source as a read returns it, every version kept. */
  private static Map<String, Result> readSource(TableName source) throws Exception {
    Map<String, Result> rows = new TreeMap<>();
    try (Table t = connection.getTable(source);
        ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
      for (Result r : s) {
        rows.put(Bytes.toString(r.getRow()), r);
      }
    }
    return rows;
  }

  /** A timestamp later than every one given before: each change is its own version. */
  private long clock() {
    last = Math.max(System.currentTimeMillis(), last + 1);
    return last;
  }

  /** Waits until a window ending now holds every change made. */
  private void settle() throws InterruptedException {
    while (System.currentTimeMillis() <= last + 1) {
      Thread.sleep(5);
    }
  }

  private Put insert() {
    String key = "u" + random.nextInt(5) + "_" + rows.size();
    rows.add(key);
    long ts = clock();
    Put p = new Put(b(key));
    p.addColumn(b("m"), b("sender"), ts, b(SENDERS[random.nextInt(SENDERS.length)]));
    p.addColumn(b("m"), b("subject"), ts, b("s" + random.nextInt(10)));
    if (random.nextInt(10) > 0) {
      p.addColumn(b("m"), b("grp"), ts, b("g" + random.nextInt(4)));
    }
    p.addColumn(b("m"), b("read"), ts, b("no"));
    p.addColumn(b("h"), b("tag"), ts, b("t" + random.nextInt(10)));
    return p;
  }

  /** One random change; a version delete only of a tag written in this window (see below). */
  private Mutation change(Set<String> tagWritten) {
    byte[] row = b(rows.get(random.nextInt(rows.size())));
    long ts = clock();
    switch (random.nextInt(12)) {
      case 0, 1:
        return insert();
      case 2:
        return put(row, "m", "sender", SENDERS[random.nextInt(SENDERS.length)], ts);
      case 3:
        return put(row, "m", "subject", "s" + random.nextInt(10), ts);
      case 4:
        return put(row, "m", "grp", "g" + random.nextInt(4), ts);
      case 5:
        return put(row, "m", "read", random.nextBoolean() ? "yes" : "no", ts);
      case 6:
        tagWritten.add(Bytes.toString(row));
        return put(row, "h", "tag", "t" + random.nextInt(10), ts);
      case 7:
        // HBase stamps a version delete with the version's own time: only one of this window is
        // inside it (an older one is a write below the watermark, which scrutiny --repair mends).
        if (tagWritten.contains(Bytes.toString(row))) {
          return new Delete(row).addColumn(b("h"), b("tag"));
        }
        return put(row, "m", "sender", "alice", ts);
      case 8:
        return new Delete(row).addColumns(b("m"), b("sender"), ts);
      case 9:
        return new Delete(row).addFamily(b("m"), ts);
      case 10:
        return new Delete(row, ts);
      default:
        return put(row, "m", "subject", "s" + random.nextInt(10), ts);
    }
  }

  private static Put put(byte[] row, String family, String qualifier, String value, long ts) {
    return new Put(row).addColumn(b(family), b(qualifier), ts, b(value));
  }

  /** The mutations one at a time, in order: a change and a delete of one row do not race. */
  private static void apply(TableName source, List<Mutation> batch) throws Exception {
    try (Table t = connection.getTable(source)) {
      for (Mutation m : batch) {
        if (m instanceof Put p) {
          t.put(p);
        } else {
          t.delete((Delete) m);
        }
      }
    }
  }
}
