package io.rekey.rekey;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.RunFiles;
import io.rekey.hbase.TableAdmin;
import io.rekey.keys.ColumnBinding;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.KeyReject;
import io.rekey.keys.KeyText;
import io.rekey.keys.LayoutException;
import io.rekey.keys.SplitPoints;
import io.rekey.read.CellVisibility;
import io.rekey.read.RowSampler;
import io.rekey.write.RegionPartitioner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Decides a rekey run from the options and the cluster, reading metadata and a few sample rows
 * only: the source's families, the target's regions (planned from the layout, or the existing
 * ones), the run directory, and what the first rows of the source become.
 */
public final class RekeyPlanner {
  private static final int SAMPLE_KEYS_SHOWN = 10;
  private static final int SPLIT_SAMPLE_ROWS = 10_000;

  private final Connection connection;
  private final Configuration conf;

  public RekeyPlanner(Connection connection, Configuration conf) {
    this.connection = connection;
    this.conf = conf;
  }

  /** The plan, plus what running it needs that a person does not read. */
  public record Planned(
      RekeyPlan plan, TableDescriptor sourceDescriptor, List<byte[]> splitPoints) {}

  /**
   * @param cores the cores Spark has, to choose writer tasks per region
   */
  public Planned plan(RekeyOptions options, int cores) {
    TableAdmin admin = new TableAdmin(connection);
    TableDescriptor source = admin.descriptor(options.source(), "source");
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
    boolean targetExists = admin.exists(options.target());
    if (!targetExists) {
      admin.requireNamespace(
          options.target(), RekeyOptions.TARGET.name(), options.createNamespace());
    }
    List<FamilySettings> families = new ArrayList<>();
    TableDescriptor familiesFrom = source;
    if (targetExists) {
      TableDescriptor target = admin.descriptor(options.target(), "target");
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
      List<byte[]> starts = admin.regionStartKeys(options.target());
      splits = new ArrayList<>(starts.subList(1, starts.size()));
    } else {
      splits = plannedSplits(options, mapping);
    }
    int regions = splits.size() + 1;
    int tasksPerRegion =
        options.tasksPerRegion() > 0
            ? options.tasksPerRegion()
            : RegionPartitioner.tasksPerRegion(cores, regions);
    List<KeyText> splitTexts = new ArrayList<>();
    for (byte[] s : splits) {
      splitTexts.add(KeyText.of(s));
    }
    String snapshot =
        options.liveScan()
            ? null
            : "rekey-"
                + options.source().getNameAsString().replace(':', '_')
                + "-"
                + System.currentTimeMillis();
    RekeyPlan plan =
        new RekeyPlan(
            options.source().getNameAsString(),
            options.target().getNameAsString(),
            mapping.source().canonicalSpec(),
            mapping.target().canonicalSpec(),
            mapping.injectivity(),
            !mapping.injectivity().injective() && !options.allowMerge(),
            (options.liveScan() ? "live-scan" : "snapshot")
                + (options.raw() ? ", raw (delete markers and hidden cells too)" : ""),
            snapshot,
            runDir(options).toString(),
            !targetExists,
            families,
            splitTexts,
            tasksPerRegion,
            options.maxRejects(),
            admin.regionStartKeys(options.source()).size(),
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
    Scan scan = new Scan().setLimit(SAMPLE_KEYS_SHOWN).setCaching(SAMPLE_KEYS_SHOWN);
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        try {
          byte[] key = mapping.map(r.getRow(), columns(r));
          out.add(new RekeyPlan.SampleKey(KeyText.of(r.getRow()), KeyText.of(key), null));
        } catch (KeyReject e) {
          out.add(new RekeyPlan.SampleKey(KeyText.of(r.getRow()), null, e.toString()));
        }
      }
    } catch (IOException e) {
      throw new RekeyException("cannot read sample rows of " + table + ": " + e.getMessage(), e);
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
    RowSampler.sample(
        connection,
        table,
        scan,
        SPLIT_SAMPLE_ROWS,
        r -> {
          try {
            keys.add(mapping.map(r.getRow(), columns(r)));
          } catch (KeyReject ignored) {
            // A rejected row has no new key to split at; the job reports it.
          }
        });
    return keys;
  }

  private static ColumnValues columns(Result r) {
    return CellVisibility.columns(r, false);
  }
}
