package io.rekey.rekey;

import static io.rekey.rekey.RekeyIT.b;
import static io.rekey.rekey.RekeyIT.connection;
import static io.rekey.rekey.SyncIT.BOUND_SOURCE;
import static io.rekey.rekey.SyncIT.LAG_MILLIS;
import static io.rekey.rekey.SyncIT.TEXT_BY_SENDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.keys.KeyMapping;
import io.rekey.options.OptionValues;
import io.rekey.report.RepairText;
import io.rekey.report.SyncText;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.TestTables;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One randomized live migration on the mini cluster, from a seed: a copy, then a random sequence of
 * changes to the source (puts stamped now and an hour ago, deletes of each kind, key-bound column
 * changes: moves, moves back, values the layout refuses, the column deleted), flushes and major
 * compactions of either table, syncs and repairs at random points; then {@code sync --final
 * --repair}. The invariant, every case: whenever the final sync's verdict matches, an independent
 * read of both tables through the mapping is equal and the unmapped rows it printed are the ones an
 * independent read cannot map; acknowledged, the switch is safe; a second repair writes nothing.
 */
final class RandomLiveTable {
  private static final Logger LOG = LoggerFactory.getLogger(RandomLiveTable.class);
  private static final String[] SENDERS = {"ann", "bob", "cat"};

  /** What a case did, for the failure message and the tally. */
  enum Step {
    NEW_ROW,
    PUT_NOW,
    PUT_PAST,
    DELETE_ROW,
    DELETE_FAMILY,
    DELETE_COLUMN,
    DELETE_VERSION,
    MOVE,
    MOVE_BACK,
    REFUSED_VALUE,
    BOUND_COLUMN_DELETED,
    FLUSH_SOURCE,
    COMPACT_SOURCE,
    COMPACT_TARGET,
    SYNC,
    REPAIR
  }

  private final long seed;
  private final SplittableRandom random;
  private final TableName source;
  private final String sourceName;
  private final String targetName;
  private final List<String> rows = new ArrayList<>();
  private final Map<String, String> previousSender = new HashMap<>();
  private final Map<Step, Integer> done = new EnumMap<>(Step.class);
  private long clock;

  RandomLiveTable(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
    String name = "rnd_" + Long.toHexString(seed);
    this.sourceName = name + "_src";
    this.targetName = name + "_dst";
    this.source = TableName.valueOf(sourceName);
  }

  /** Runs the case; an assertion names the seed and the steps taken. */
  Map<Step, Integer> run() throws Exception {
    TestTables.create(
        source, ColumnFamilyDescriptorBuilder.newBuilder(b("m")).setMaxVersions(3).build());
    long hourAgo = System.currentTimeMillis() - 3_600_000;
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String row = (hourAgo + i) + "_o" + i;
      rows.add(row);
      puts.add(
          new Put(b(row))
              .addColumn(b("m"), b("sender"), hourAgo + i, b(SENDERS[i % 3]))
              .addColumn(b("m"), b("body"), hourAgo + i, b("body " + i)));
    }
    TestTables.put(source, puts);
    OptionValues v =
        SyncIT.values(sourceName, targetName, BOUND_SOURCE, TEXT_BY_SENDER)
            .with("max-rejects", "1000");
    SyncIT.rekey(v);
    clock = System.currentTimeMillis();
    int steps = 6 + random.nextInt(8);
    for (int s = 0; s < steps; s++) {
      Step step = Step.values()[random.nextInt(Step.values().length)];
      apply(step, v);
      done.merge(step, 1, Integer::sum);
    }
    long stoppedAt = tick() + 1;
    Thread.sleep(Math.max(0, stoppedAt + LAG_MILLIS + 200 - System.currentTimeMillis()));
    OptionValues last =
        v.with("final", "true")
            .with("repair", "true")
            .with("writes-stopped-at", String.valueOf(stoppedAt));
    KeyMapping mapping = KeyMapping.parse(BOUND_SOURCE, TEXT_BY_SENDER);
    TableName target = TableName.valueOf(targetName);
    String what = "seed " + seed + " (" + Long.toHexString(seed) + "), steps " + done;
    LOG.info("random live table: {}", what);

    SyncResult result = SyncIT.sync(last);
    int unmapped = RekeyIT.unmappedRows(source, mapping).size();
    if (result.verdict().matches()) {
      assertThat(RekeyIT.actual(target)).as(what).isEqualTo(RekeyIT.expected(source, mapping));
      assertThat(result.verdict().unmapped().rows()).as(what).isEqualTo(unmapped);
    }
    assertThat(result.switchSafe()).as(what).isEqualTo(result.verdict().matches() && unmapped == 0);

    // A final sync that said "switch" needs no second one; otherwise the rows it could not map are
    // acknowledged, and the switch must follow.
    SyncResult acknowledged =
        result.switchSafe()
            ? result
            : SyncIT.sync(last.with("accept-unmapped", String.valueOf(unmapped)));
    assertThat(acknowledged.switchSafe()).as(what + "\n" + SyncText.sync(acknowledged)).isTrue();
    assertThat(RekeyIT.actual(target)).as(what).isEqualTo(RekeyIT.expected(source, mapping));
    RepairResult again = RepairIT.repair(v.with("accept-unmapped", String.valueOf(unmapped)));
    assertThat(again.cellsWritten()).as(what + "\n" + RepairText.repair(again)).isZero();
    return done;
  }

  private void apply(Step step, OptionValues v) throws Exception {
    String row = rows.get(random.nextInt(rows.size()));
    try (Table t = connection.getTable(source)) {
      switch (step) {
        case NEW_ROW -> {
          long ts = tick();
          String fresh = ts + "_n" + rows.size();
          rows.add(fresh);
          t.put(
              new Put(b(fresh))
                  .addColumn(b("m"), b("sender"), ts, b(SENDERS[random.nextInt(3)]))
                  .addColumn(b("m"), b("body"), ts, b("new " + ts)));
        }
        case PUT_NOW -> t.put(new Put(b(row)).addColumn(b("m"), b("body"), tick(), b("now")));
        case PUT_PAST -> {
          long past = clock - 3_000_000 - random.nextInt(100_000);
          t.put(new Put(b(row)).addColumn(b("m"), b("body"), past, b("backfilled " + past)));
        }
        case DELETE_ROW -> t.delete(new Delete(b(row), tick()));
        case DELETE_FAMILY -> t.delete(new Delete(b(row)).addFamily(b("m"), tick()));
        case DELETE_COLUMN -> t.delete(new Delete(b(row)).addColumns(b("m"), b("body"), tick()));
        case DELETE_VERSION -> {
          Cell[] versions = t.get(new Get(b(row)).readAllVersions()).rawCells();
          if (versions.length > 0) {
            Cell c = versions[random.nextInt(versions.length)];
            t.delete(
                new Delete(b(row))
                    .addColumn(
                        org.apache.hadoop.hbase.CellUtil.cloneFamily(c),
                        org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
                        c.getTimestamp()));
          }
        }
        case MOVE -> {
          byte[] now = t.get(new Get(b(row))).getValue(b("m"), b("sender"));
          if (now != null) {
            previousSender.put(row, org.apache.hadoop.hbase.util.Bytes.toString(now));
          }
          t.put(
              new Put(b(row))
                  .addColumn(b("m"), b("sender"), tick(), b(SENDERS[random.nextInt(3)] + "2")));
        }
        case MOVE_BACK -> {
          String back = previousSender.getOrDefault(row, SENDERS[0]);
          t.put(new Put(b(row)).addColumn(b("m"), b("sender"), tick(), b(back)));
        }
        case REFUSED_VALUE ->
            t.put(new Put(b(row)).addColumn(b("m"), b("sender"), tick(), b("x_y")));
        case BOUND_COLUMN_DELETED ->
            t.delete(new Delete(b(row)).addColumns(b("m"), b("sender"), tick()));
        case FLUSH_SOURCE -> MiniHBase.util().flush(source);
        case COMPACT_SOURCE -> MiniHBase.util().compact(source, true);
        case COMPACT_TARGET -> {
          MiniHBase.util().flush(TableName.valueOf(targetName));
          MiniHBase.util().compact(TableName.valueOf(targetName), true);
        }
        case SYNC -> {
          Thread.sleep(LAG_MILLIS + 200);
          SyncIT.sync(v);
        }
        case REPAIR -> RepairIT.repair(v);
      }
    }
  }

  /** A fresh timestamp, never the same twice. */
  private long tick() {
    clock = Math.max(System.currentTimeMillis(), clock + 1);
    return clock;
  }
}
