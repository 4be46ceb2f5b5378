package io.rekey.verify;

import io.rekey.common.Json;
import io.rekey.hbase.TableAdmin;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyText;
import io.rekey.read.TableRead;
import io.rekey.run.RunRecord;
import io.rekey.run.RunState;
import io.rekey.spark.JobContext;
import io.rekey.write.RegionPartitioner;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import scala.Tuple2;

/**
 * Proves a target holds what a source held, through the key mapping: every source cell is mapped to
 * its new row and digested, every target cell is digested, and the two are compared per target
 * region, so a difference names the key range where it is. HBase's HashTable/SyncTable compare
 * tables with the same keys; this works across a change of keys.
 */
public final class VerifyJob {
  private final JavaSparkContext sc;
  private final KeyMapping mapping;
  private final List<byte[]> regionStarts;
  private final Counted sourceCounted;
  private final Counted targetCounted;

  /**
   * Compares what a normal read returns.
   *
   * @param regionStarts the target's region start keys, in order, the first empty
   */
  public VerifyJob(JavaSparkContext sc, KeyMapping mapping, List<byte[]> regionStarts) {
    this(sc, mapping, regionStarts, Counted.everyCell(), Counted.everyCell());
  }

  /**
   * @param source which of the source's cells count, as it is read
   * @param target which of the target's cells count, as it is read
   */
  public VerifyJob(
      JavaSparkContext sc,
      KeyMapping mapping,
      List<byte[]> regionStarts,
      Counted source,
      Counted target) {
    this.sc = sc;
    this.mapping = mapping;
    this.regionStarts = List.copyOf(regionStarts);
    this.sourceCounted = source;
    this.targetCounted = target;
  }

  /**
   * {@link #tables}, and the comparison's line in the target's run history ({@link
   * VerifyRunRecord}) when the state table exists: a switch reads when the target was last proven.
   * A history that cannot be written (no permission) is logged, not a failure of the comparison.
   */
  public static VerifyResult recorded(JobContext job, VerifyOptions options, Path staging) {
    RunState state =
        options.stateTable() == null
            ? null
            : new RunState(
                job.connection(), TableName.valueOf(options.stateTable()), options.target());
    if (state == null || !state.tableExists()) {
      return tables(job, options, staging);
    }
    long started = System.currentTimeMillis();
    RunRecord.Start start =
        new RunRecord.Start(
            VerifyRunRecord.RUN,
            started,
            job.sc().sc().applicationId(),
            null,
            options.until(),
            null);
    return state.recorded(
        started,
        () -> tables(job, options, staging),
        r ->
            Json.toJsonLine(
                VerifyRunRecord.of(start, r, VerifyVerdict.finding(r, options).orElse(null))),
        message -> Json.toJsonLine(VerifyRunRecord.failed(start, message)));
  }

  /**
   * Compares {@code options.source()} with {@code options.target()}, each read through a snapshot
   * of its own (a point in time, deleted when done, failed or not) or both live, with every version
   * and, with {@code until}, as of {@code until} ({@link Counted#of}). A snapshot read leaves the
   * region servers out: their scans were most of a verify's time, and load on a live cluster.
   *
   * @param staging where the snapshots are restored
   */
  public static VerifyResult tables(JobContext job, VerifyOptions options, Path staging) {
    JavaSparkContext sc = job.sc();
    Connection connection = job.connection();
    Configuration conf = job.conf();
    TableAdmin admin = new TableAdmin(connection);
    if (options.stateTable() != null) {
      MigrationDefinition.of(options.source(), options.mapping(), null)
          .requireSame(
              new RunState(connection, TableName.valueOf(options.stateTable()), options.target())
                  .pinnedDefinitionIfAny(),
              options.target().getNameAsString(),
              "verify");
    }
    Sides sides =
        Sides.of(admin, options.source(), options.target(), options.raw(), options.until());
    if (options.until() != null) {
      sides =
          sides.leavingOut(
              ChangedSince.find(
                  sc,
                  conf,
                  options.source(),
                  options.target(),
                  options.mapping(),
                  options.until(),
                  options.batch()));
    }
    // Rows with column-bound fields must arrive whole.
    int sourceBatch = options.mapping().source().columns().isEmpty() ? options.batch() : 0;
    try (TableRead source =
            TableRead.open(
                sc,
                connection,
                conf,
                options.source(),
                sides.sourceScan(sourceBatch),
                options.read(),
                staging,
                "rekey-verify");
        TableRead target =
            TableRead.openCompared(
                sc,
                connection,
                conf,
                options.target(),
                sides.targetScan(options.batch()),
                options.read(),
                staging,
                "rekey-verify")) {
      return new VerifyJob(
              sc,
              options.mapping(),
              admin.regionStartKeys(options.target()),
              sides.source(),
              sides.target())
          .compare(source.rows(), target.rows());
    }
  }

  /** Compares the two inputs (read with every version, as their {@link Counted} say). */
  public VerifyResult compare(
      JavaPairRDD<ImmutableBytesWritable, Result> source,
      JavaPairRDD<ImmutableBytesWritable, Result> target) {
    long started = System.nanoTime();
    byte[][] starts = regionStarts.subList(1, regionStarts.size()).toArray(new byte[0][]);
    RegionPartitioner regions = new RegionPartitioner(starts, 1);
    sc.setJobDescription("verify: digest source cells through the key mapping, per target region");
    Map<Integer, RegionSum> expected =
        source
            .mapPartitionsToPair(new MappedDigests(mapping, regions, sourceCounted))
            .reduceByKey(RegionSum::plus)
            .collectAsMap();
    sc.setJobDescription("verify: digest target cells per region");
    Map<Integer, RegionSum> actual =
        target
            .mapPartitionsToPair(new MappedDigests(null, regions, targetCounted))
            .reduceByKey(RegionSum::plus)
            .collectAsMap();
    MergedKeys merged = MergedKeys.of(sc, source, mapping, sourceCounted);
    List<RegionDiff> diffs = new ArrayList<>();
    int differing = 0;
    long sourceCells = 0;
    long targetCells = 0;
    for (int r = 0; r < regionStarts.size(); r++) {
      CellDigest e = expected.getOrDefault(r, RegionSum.EMPTY).digest();
      CellDigest a = actual.getOrDefault(r, RegionSum.EMPTY).digest();
      sourceCells += e.cells();
      targetCells += a.cells();
      if (!e.equals(a)) {
        differing++;
        if (diffs.size() < 100) {
          byte[] end = r + 1 < regionStarts.size() ? regionStarts.get(r + 1) : new byte[0];
          diffs.add(
              new RegionDiff(
                  r, KeyText.of(regionStarts.get(r)), KeyText.of(end), e.cells(), a.cells()));
        }
      }
    }
    return new VerifyResult(
        differing == 0,
        sourceCells,
        targetCells,
        regionStarts.size(),
        diffs,
        differing,
        expected.getOrDefault(UNMAPPED, RegionSum.EMPTY).unmapped(),
        sourceCounted.leftOut().size(),
        sourceCounted.leftOut().first(UnmappedRows.EXAMPLES),
        merged.keys(),
        merged.examples(),
        (System.nanoTime() - started) / 1e9);
  }

  /** The key under which the source rows the mapping rejects are tallied. */
  private static final int UNMAPPED = -1;

  /** One target region's digest, or (under {@link #UNMAPPED}) the rows that have no region. */
  private record RegionSum(CellDigest digest, UnmappedRows unmapped)
      implements java.io.Serializable {
    static final RegionSum EMPTY = new RegionSum(CellDigest.EMPTY, UnmappedRows.NONE);

    RegionSum plus(RegionSum o) {
      return new RegionSum(digest.plus(o.digest), unmapped.plus(o.unmapped));
    }
  }

  /** Digests per target region; with a mapping, rows are first moved to their new keys. */
  private static final class MappedDigests
      implements PairFlatMapFunction<
          Iterator<Tuple2<ImmutableBytesWritable, Result>>, Integer, RegionSum> {
    private static final long serialVersionUID = 1L;
    private final KeyMapping mapping;
    private final RegionPartitioner regions;
    private final Counted counted;

    MappedDigests(KeyMapping mapping, RegionPartitioner regions, Counted counted) {
      this.mapping = mapping;
      this.regions = regions;
      this.counted = counted;
    }

    @Override
    public Iterator<Tuple2<Integer, RegionSum>> call(
        Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      TreeMap<Integer, CellDigest> sums = new TreeMap<>();
      MappedRows mapped = new MappedRows(mapping, counted);
      while (rows.hasNext()) {
        MappedRows.Row row = mapped.map(rows.next()._2());
        if (row == null) {
          continue;
        }
        int region = regions.region(row.key());
        CellDigest sum = sums.getOrDefault(region, CellDigest.EMPTY);
        for (Cell c : row.cells()) {
          sum = sum.plus(CellDigest.of(row.key(), c));
        }
        sums.put(region, sum);
      }
      List<Tuple2<Integer, RegionSum>> out = new ArrayList<>();
      sums.forEach((k, v) -> out.add(new Tuple2<>(k, new RegionSum(v, UnmappedRows.NONE))));
      if (mapped.unmapped().rows() > 0) {
        out.add(new Tuple2<>(UNMAPPED, new RegionSum(CellDigest.EMPTY, mapped.unmapped())));
      }
      return out.iterator();
    }
  }
}
