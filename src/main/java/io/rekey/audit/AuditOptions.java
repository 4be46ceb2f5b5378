package io.rekey.audit;

import io.rekey.keys.KeyLayout;
import io.rekey.keys.KeyMapping;
import io.rekey.keys.LayoutException;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.Location;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import io.rekey.options.ReadMode;
import io.rekey.options.SharedOptions;
import io.rekey.read.ReadOptions;
import io.rekey.schema.TableInspector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code audit}.
 *
 * @param sourceKey how the current key is made, or null when not given
 * @param candidates the layouts to simulate: those given, then the defaults
 * @param sampleFraction the share of rows read (1 reads all)
 * @param rowsPerSplit read at most this many rows per input split (0: all)
 * @param out the directory for {@code audit.json} and {@code audit.html}
 * @param failOn the severity from which the exit code is 4
 * @param regions regions of the simulated tables, 0 for as many as the table has
 */
public record AuditOptions(
    TableName table,
    ReadMode read,
    double sampleFraction,
    long rowsPerSplit,
    String sourceKeySpec,
    KeyLayout sourceKey,
    List<LayoutSimulator.Candidate> candidates,
    int regions,
    Location out,
    FailOn failOn,
    int rowSample,
    int cellSample,
    String staging,
    int batch) {
  /** When {@code audit} exits with 4 for what it found. */
  public enum FailOn {
    /** Never: the findings are reported, the exit code is 0 (the default). */
    NEVER,
    /** On any warning or error finding. */
    WARN,
    /** On error findings only. */
    ERROR
  }

  public static final OptionDef<String> TABLE =
      OptionDef.text("table", "NS:TABLE", "the table to profile").required();
  public static final OptionDef<Boolean> SNAPSHOT = ReadOptions.SNAPSHOT;
  public static final OptionDef<Boolean> LIVE_SCAN = ReadOptions.LIVE_SCAN;
  public static final OptionDef<Double> SAMPLE_FRACTION =
      OptionDef.decimal(
              "sample-fraction",
              "F",
              "profile about this share of rows, chosen by a hash of the key (the same rows every"
                  + " run); counts are then of the rows profiled",
              0,
              1)
          .withDefault(1.0);
  public static final OptionDef<Long> ROWS_PER_SPLIT =
      OptionDef.number(
              "rows-per-split",
              "N",
              "read at most N rows from each input split (0: all), for a quick first look",
              0,
              Long.MAX_VALUE)
          .withDefault(0L);
  public static final OptionDef<String> SOURCE_KEY =
      OptionDef.text(
          "source-key",
          "SPEC",
          "how the current key is made (see README): names the first field for the prefix"
              + " histogram and the what-if layouts");
  public static final OptionDef<String> CANDIDATE =
      OptionDef.text(
              "candidate",
              "SPEC",
              "a key layout to simulate, built from --source-key's fields or 'key' (repeatable)")
          .repeatable();
  public static final OptionDef<Long> REGIONS =
      OptionDef.number(
              "regions",
              "N",
              "regions of the simulated tables (salted layouts get at least one per bucket); 0:"
                  + " as many as the table has, 16 for a one-region table",
              0,
              4096)
          .withDefault(0L);
  public static final OptionDef<Location> OUT =
      OptionDef.location(
          "out",
          "DIR",
          "where audit.json and audit.html go (default: var/audit/NS_TABLE; hdfs://... for a"
              + " Hadoop path)");
  public static final OptionDef<FailOn> FAIL_ON =
      OptionDef.choice(
          "fail-on",
          "exit with 4 when a finding of this severity or worse fires (for schedules)",
          FailOn.class,
          FailOn.NEVER);
  public static final OptionDef<Long> ROW_SAMPLE =
      OptionDef.number(
              "row-sample",
              "N",
              "rows kept in the uniform sample behind the what-if layouts and monotonic check",
              100,
              1_000_000)
          .withDefault(16_384L);
  public static final OptionDef<Long> CELL_SAMPLE =
      OptionDef.number(
              "cell-sample",
              "N",
              "cells kept in the uniform sample behind recent writes and key ranges",
              100,
              1_000_000)
          .withDefault(32_768L);
  public static final OptionDef<String> STAGING = SharedOptions.STAGING;
  public static final OptionDef<Long> BATCH = ReadOptions.BATCH;

  /** Every option of {@code audit}, in usage order. */
  /** Typed options set option by option, validated as a command line's ({@link #from}). */
  public static OptionsBuilder<AuditOptions> builder() {
    return new OptionsBuilder<>(declared(), AuditOptions::from);
  }

  public static List<OptionDef<?>> declared() {
    return List.of(
        TABLE,
        SNAPSHOT,
        LIVE_SCAN,
        SAMPLE_FRACTION,
        ROWS_PER_SPLIT,
        SOURCE_KEY,
        CANDIDATE,
        REGIONS,
        OUT,
        FAIL_ON,
        ROW_SAMPLE,
        CELL_SAMPLE,
        STAGING,
        BATCH);
  }

  /** Builds and checks the options: every key spec is parsed before any work. */
  public static AuditOptions from(OptionValues values) {
    ReadMode read = ReadOptions.mode(values);
    if (values.isSet(SAMPLE_FRACTION) && values.get(ROWS_PER_SPLIT) > 0) {
      throw new InvalidOptionException(
          "--sample-fraction and --rows-per-split are both given; choose one way to sample");
    }
    TableName table = TableInspector.tableName(TABLE.name(), values.get(TABLE));
    String sourceSpec = values.get(SOURCE_KEY);
    KeyLayout sourceKey = null;
    if (sourceSpec != null) {
      try {
        sourceKey = KeyLayout.parse(sourceSpec);
      } catch (LayoutException e) {
        throw InvalidOptionException.of(
            SOURCE_KEY.name(), sourceSpec, "cannot be used: " + e.problemAndColumn());
      }
    }
    List<LayoutSimulator.Candidate> candidates = new ArrayList<>();
    for (String spec : values.getAll(CANDIDATE)) {
      try {
        KeyMapping.parse(sourceSpec == null ? LayoutSimulator.KEEP_KEY : sourceSpec, spec);
      } catch (LayoutException e) {
        throw InvalidOptionException.of(
            CANDIDATE.name(),
            spec,
            "cannot be built from "
                + (sourceSpec == null
                    ? "the whole key (give --source-key to use fields)"
                    : "--source-key")
                + ": "
                + e.problemAndColumn());
      }
      candidates.add(new LayoutSimulator.Candidate(spec, spec));
    }
    for (LayoutSimulator.Candidate c : LayoutSimulator.defaults(sourceKey)) {
      if (candidates.stream().noneMatch(given -> given.targetSpec().equals(c.targetSpec()))) {
        candidates.add(c);
      }
    }
    Location out = values.get(OUT);
    if (out == null) {
      out =
          new Location(
              Path.of("var", "audit", table.getNameAsString().replace(':', '_')).toString());
    }
    return new AuditOptions(
        table,
        read,
        values.get(SAMPLE_FRACTION),
        values.get(ROWS_PER_SPLIT),
        sourceSpec,
        sourceKey,
        List.copyOf(candidates),
        values.get(REGIONS).intValue(),
        out,
        values.get(FAIL_ON),
        values.get(ROW_SAMPLE).intValue(),
        values.get(CELL_SAMPLE).intValue(),
        values.get(STAGING),
        values.get(BATCH).intValue());
  }

  /** Regions of the simulated tables for a table of {@code tableRegions} regions. */
  public int whatIfRegions(int tableRegions) {
    if (regions > 0) {
      return regions;
    }
    // Compare layouts at today's size; a one-region table has no size yet, 16 is a usual start.
    return tableRegions > 1 ? tableRegions : DEFAULT_WHAT_IF_REGIONS;
  }

  /** Regions of the simulated tables when the table has one region and none are asked for. */
  public static final int DEFAULT_WHAT_IF_REGIONS = 16;

  /** How much of the table is read, for the report. */
  public AuditResult.Sampling sampling() {
    String mode = sampleFraction < 1 ? "fraction" : rowsPerSplit > 0 ? "rows-per-split" : "all";
    return new AuditResult.Sampling(
        mode, sampleFraction, rowsPerSplit, rowSample, cellSample, 0, 0);
  }
}
