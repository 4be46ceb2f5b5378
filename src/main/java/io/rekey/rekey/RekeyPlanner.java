package io.rekey.rekey;

import io.rekey.common.RekeyException;
import io.rekey.hbase.ClusterView;
import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.RowSampler;
import io.rekey.hbase.TableAdmin;
import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.keys.KeyText;
import io.rekey.keys.LayoutException;
import io.rekey.keys.SplitPoints;
import io.rekey.options.ReadMode;
import io.rekey.read.CellVisibility;
import io.rekey.run.RunFiles;
import io.rekey.verify.Counted;
import io.rekey.write.WriterTasks;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Decides a rekey run from the options and the cluster, reading metadata and a few sample rows
 * only: the source's families, the target's regions (planned from the layout, or the existing
 * ones), the run directory, and what the first rows of the source become. Reads HBase through a
 * {@link ClusterView} alone, so a plan (and the dry run) is a pure call, tested without a cluster.
 */
public final class RekeyPlanner {
  private static final int SAMPLE_KEYS_SHOWN = 10;
  private static final int SPLIT_SAMPLE_ROWS = 10_000;

  private final ClusterView cluster;
  private final Configuration conf;
  private final Clock clock;

  /**
   * @param cluster what the plan reads of HBase (a {@link io.rekey.hbase.TableAdmin}, or an
   *     in-memory view in tests)
   * @param conf the HBase settings, for the staging directory
   * @param clock names the snapshot
   */
  public RekeyPlanner(ClusterView cluster, Configuration conf, Clock clock) {
    this.cluster = cluster;
    this.conf = conf;
    this.clock = clock;
  }

  /** The plan, plus what running it needs that a person does not read. */
  public record Planned(
      RekeyPlan plan, TableDescriptor sourceDescriptor, List<byte[]> splitPoints) {}

  /**
   * @param cores the cores Spark has, to choose writer tasks per region
   */
  public Planned plan(RekeyOptions options, int cores) {
    TableDescriptor source = cluster.descriptor(options.source(), "source");
    if (options.raw()) {
      Counted.requireRawReadable(source);
    }
    KeyMapping mapping = options.mapping();
    for (ColumnBinding c : mapping.source().columns()) {
      if (source.getColumnFamily(Bytes.toBytes(c.family())) == null) {
        throw new RekeyException(
            "the source key binds "
                + c.field().name()
                + " to "
                + c.family()
                + ":"
                + c.qualifier()
                + ", but "
                + options.source()
                + " has no family '"
                + c.family()
                + "'");
      }
    }
    boolean targetExists = cluster.exists(options.target());
    if (!targetExists) {
      cluster.requireNamespace(
          options.target(), RekeyOptions.TARGET.name(), options.createNamespace());
    }
    List<FamilySettings> families = new ArrayList<>();
    TableDescriptor familiesFrom = source;
    if (targetExists) {
      TableDescriptor target = cluster.descriptor(options.target(), "target");
      TableAdmin.requireSameFamilies(source, target);
      TargetFamilies.require(source, target, mapping);
      familiesFrom = target;
    }
    for (ColumnFamilyDescriptor f : familiesFrom.getColumnFamilies()) {
      families.add(FamilySettings.of(f));
    }
    List<RekeyPlan.SampleKey> samples = sampleKeys(options.source(), mapping);
    List<byte[]> splits;
    if (targetExists) {
      List<byte[]> starts = cluster.regionStartKeys(options.target());
      splits = new ArrayList<>(starts.subList(1, starts.size()));
    } else {
      splits = plannedSplits(options, mapping);
    }
    int regions = splits.size() + 1;
    int tasksPerRegion =
        options.tasksPerRegion() > 0
            ? options.tasksPerRegion()
            : WriterTasks.perRegion(cores, regions);
    List<KeyText> splitTexts = new ArrayList<>();
    for (byte[] s : splits) {
      splitTexts.add(KeyText.of(s));
    }
    String snapshot =
        options.read() == ReadMode.LIVE_SCAN
            ? null
            : "rekey-"
                + options.source().getNameAsString().replace(':', '_')
                + "-"
                + clock.millis();
    RekeyPlan plan =
        new RekeyPlan(
            options.source().getNameAsString(),
            options.target().getNameAsString(),
            mapping.source().canonicalSpec(),
            mapping.target().canonicalSpec(),
            mapping.injectivity(),
            !mapping.injectivity().injective() && !options.allowMerge(),
            options.read().cliName()
                + (options.raw() ? ", raw (delete markers and hidden cells too)" : ""),
            snapshot,
            runDir(options).toString(),
            !targetExists,
            families,
            splitTexts,
            tasksPerRegion,
            options.maxRejects(),
            cluster.regionStartKeys(options.source()).size(),
            samples);
    return new Planned(plan, source, splits);
  }

  /** {@code STAGING/TARGET-from-SOURCE}; staging as {@link RunFiles#staging} says. */
  Path runDir(RekeyOptions options) {
    return new Path(
        RunFiles.staging(conf, options.staging()),
        options.target().getNameAsString().replace(':', '_')
            + "-from-"
            + options.source().getNameAsString().replace(':', '_'));
  }

  private List<byte[]> plannedSplits(RekeyOptions options, KeyMapping mapping) {
    var layout = mapping.target();
    try {
      if (layout.leadingSaltBuckets() > 0) {
        return SplitPoints.plan(
            layout, layout.leadingSaltBuckets() * options.splitsPerBucket(), List.of());
      }
      if (layout.startsWithHash()) {
        return SplitPoints.plan(layout, options.regions(), List.of());
      }
      List<byte[]> sample = sampleNewKeys(options.source(), mapping);
      int regions = Math.min(options.regions(), Math.max(1, sample.size() / 10));
      return SplitPoints.plan(layout, regions, sample);
    } catch (LayoutException e) {
      throw new RekeyException("cannot plan the target's regions: " + e.getMessage(), e);
    }
  }

  private List<RekeyPlan.SampleKey> sampleKeys(TableName table, KeyMapping mapping) {
    List<RekeyPlan.SampleKey> out = new ArrayList<>();
    for (Result r : cluster.firstRows(table, SAMPLE_KEYS_SHOWN)) {
      try {
        byte[] key = mapping.map(r.getRow(), columns(r));
        out.add(new RekeyPlan.SampleKey(KeyText.of(r.getRow()), KeyText.of(key), null));
      } catch (KeyReject e) {
        out.add(new RekeyPlan.SampleKey(KeyText.of(r.getRow()), null, e.toString()));
      }
    }
    return out;
  }

  /** New keys of a random sample of rows, for the split points of unsalted layouts. */
  private List<byte[]> sampleNewKeys(TableName table, KeyMapping mapping) {
    Scan scan;
    if (mapping.source().columns().isEmpty()) {
      scan = RowSampler.keysOnly();
    } else {
      scan = new Scan();
      for (ColumnBinding c : mapping.source().columns()) {
        scan.addColumn(Bytes.toBytes(c.family()), Bytes.toBytes(c.qualifier()));
      }
    }
    List<byte[]> keys = new ArrayList<>();
    for (Result r : cluster.sampleRows(table, scan, SPLIT_SAMPLE_ROWS)) {
      try {
        keys.add(mapping.map(r.getRow(), columns(r)));
      } catch (KeyReject ignored) {
        // A rejected row has no new key to split at; the job reports it.
      }
    }
    return keys;
  }

  private static ColumnValues columns(Result r) {
    return CellVisibility.columns(r, false);
  }
}
